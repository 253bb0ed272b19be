// HTTP errors with Laravel-style bodies ({message, errors}) and the mapping of database errors onto them.
import type { FieldErrors } from '../shared/validation.ts';

export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly errors?: FieldErrors,
    readonly extra?: Record<string, unknown>,
  ) {
    super(message);
  }

  body(): Record<string, unknown> {
    return { message: this.message, ...(this.errors ? { errors: this.errors } : {}), ...this.extra };
  }
}

export const VALIDATION_MESSAGE = 'I dati inseriti non sono validi.';

export const unauthenticated = () => new HttpError(401, 'Unauthenticated.');
export const forbidden = () => new HttpError(403, 'Non hai i permessi per eseguire questa operazione.');
export const notFound = (what = 'Risorsa', feminine = true) => new HttpError(404, `${what} non trovat${feminine ? 'a' : 'o'}.`);
export const invalid = (errors: FieldErrors, message = VALIDATION_MESSAGE) => new HttpError(422, message, errors);

interface PgError {
  code?: string;
  constraint?: string;
  table?: string;
  detail?: string;
}

/** Constraint violations the checks before a write cannot rule out under concurrency. */
export function fromDatabaseError(error: unknown, operation: 'write' | 'delete', titleOf: (table: string) => string = (t) => t): HttpError | undefined {
  const pg = error as PgError;
  if (pg.code === '23505') {
    const column = /\(lower\(\(?"?([A-Za-z0-9_]+)"?/.exec(pg.detail ?? '')?.[1] ?? /\("?([A-Za-z0-9_]+)"?\)=/.exec(pg.detail ?? '')?.[1] ?? '_';
    return invalid({ [column]: ['Valore già presente.'] });
  }
  // 23001: ON DELETE RESTRICT; 23503: any other foreign-key violation.
  if (pg.code === '23503' || pg.code === '23001') {
    if (operation === 'delete') {
      const dependant = /table "([^"]+)"/.exec(pg.detail ?? '')?.[1] ?? pg.table ?? '';
      return new HttpError(409, `Impossibile eliminare: ci sono ancora dati collegati in ${titleOf(dependant)}.`, undefined, { dependant });
    }
    const column = /\(([A-Za-z0-9_]+)\)=/.exec(pg.detail ?? '')?.[1] ?? '_';
    return invalid({ [column]: ['Il record collegato non esiste.'] });
  }
  return undefined;
}

/** "Cliente non trovato", "Quotazione non trovata": the resource's own name and gender. */
export function notFoundFor(def: { resource: { singular?: string; feminine?: boolean } }): HttpError {
  return def.resource.singular ? notFound(def.resource.singular, def.resource.feminine === true) : notFound();
}
