// Holds back a screen whose code validates (defaults, checks before a save) until its forms' compiled validators are loaded.
import type { ReactNode } from 'react';
import type { RJSFSchema } from '@rjsf/utils';
import { Notice, Spinner } from '../lib/ui.tsx';
import { useFormValidators } from './validator.ts';

/** `schemas` must keep its identity while its content does (useMemo): a new list reloads nothing but re-checks. */
export function WithFormValidators({ schemas, children }: { schemas: RJSFSchema[]; children: ReactNode }) {
  const { ready, error } = useFormValidators(schemas);
  if (ready) return <>{children}</>;
  if (error) return <Notice variant="danger" role="alert">{`Impossibile caricare il modulo: ${error}`}</Notice>;
  return <Spinner label="Caricamento del modulo…" />;
}
