// HTTP errors with Laravel-style bodies ({message, code, errors}) and the mapping of database errors onto them.
import type { FieldErrors } from '../shared/validation.ts';
import { codeForStatus, type ErrorCode } from '../shared/error-codes.ts';

export class HttpError extends Error {
  /** Stable for clients (src/shared/error-codes.ts); the status's own code unless a more precise one is given. */
  readonly code: ErrorCode;

  constructor(
    readonly statusCode: number,
    message: string,
    readonly errors?: FieldErrors,
    readonly extra?: Record<string, unknown>,
    code?: ErrorCode,
  ) {
    super(message);
    this.code = code ?? codeForStatus(statusCode);
  }

  /** The same refusal (status, code, extra) told otherwise, e.g. naming where it happened: a re-thrown error keeps its code. */
  restated(change: { message?: string; errors?: FieldErrors }): HttpError {
    return new HttpError(this.statusCode, change.message ?? this.message, change.errors ?? this.errors, this.extra, this.code);
  }

  body(): Record<string, unknown> {
    return { message: this.message, code: this.code, ...(this.errors ? { errors: this.errors } : {}), ...this.extra };
  }
}

/** The body of an error answered without an HttpError (the framework's own refusals). */
export const errorBody = (status: number, message: string, errors?: FieldErrors) => ({ message, code: codeForStatus(status), ...(errors ? { errors } : {}) });

export const VALIDATION_MESSAGE = 'I dati inseriti non sono validi.';

export const unauthenticated = () => new HttpError(401, 'Unauthenticated.');
export const forbidden = () => new HttpError(403, 'Non hai i permessi per eseguire questa operazione.');
export const notFound = (what = 'Risorsa', feminine = true) => new HttpError(404, `${what} non trovat${feminine ? 'a' : 'o'}.`);
export const invalid = (errors: FieldErrors, message = VALIDATION_MESSAGE) => new HttpError(422, message, errors);

interface PgError {
  code?: string;
  constraint?: string;
  table?: string;
  column?: string;
  detail?: string;
}

/** Errors PostgreSQL raises on values the checks before a query let through: the input's fault, so 422, never 500. */
const BAD_VALUE_CODES: Record<string, string> = {
  '22P02': 'Valore non valido.',
  '22003': 'Valore fuori dai limiti consentiti.',
  '22007': 'Data non valida.',
  '22008': 'Data fuori dai limiti consentiti.',
  '22021': 'Il testo contiene caratteri non ammessi.',
  '54000': 'Valore troppo lungo.',
  '23514': 'Valore non ammesso.',
};

/** Bad-value errors of PostgreSQL as a 422 at the column when PostgreSQL names it; undefined for anything else. */
export function fromBadValue(error: unknown): HttpError | undefined {
  const pg = error as PgError;
  if (typeof pg?.code !== 'string') return undefined;
  if (pg.code === '23502') return invalid({ [pg.column ?? 'body']: ['Campo Obbligatorio.'] });
  const message = BAD_VALUE_CODES[pg.code];
  return message ? invalid({ [pg.column ?? 'body']: [message] }) : undefined;
}

/** Constraint violations the checks before a write cannot rule out under concurrency. */
export function fromDatabaseError(error: unknown, operation: 'write' | 'delete', titleOf: (table: string) => string = (t) => t): HttpError | undefined {
  const pg = error as PgError;
  if (pg.code === '23505') {
    const column = /\(lower\(\(?"?([A-Za-z0-9_]+)"?/.exec(pg.detail ?? '')?.[1] ?? /\("?([A-Za-z0-9_]+)"?\)=/.exec(pg.detail ?? '')?.[1] ?? 'body';
    return invalid({ [column]: ['Valore già presente.'] });
  }
  // 23001: ON DELETE RESTRICT; 23503: any other foreign-key violation.
  if (pg.code === '23503' || pg.code === '23001') {
    if (operation === 'delete') {
      const dependant = /table "([^"]+)"/.exec(pg.detail ?? '')?.[1] ?? pg.table ?? '';
      return new HttpError(409, `Impossibile eliminare: ci sono ancora dati collegati in ${titleOf(dependant)}.`, undefined, { dependant }, 'IN_USE');
    }
    const column = /\(([A-Za-z0-9_]+)\)=/.exec(pg.detail ?? '')?.[1] ?? 'body';
    return invalid({ [column]: ['Il record collegato non esiste.'] });
  }
  return fromBadValue(error);
}

/** "Cliente non trovato", "Quotazione non trovata": the resource's own name and gender. */
export function notFoundFor(def: { resource: { singular?: string; feminine?: boolean } }): HttpError {
  return def.resource.singular ? notFound(def.resource.singular, def.resource.feminine === true) : notFound();
}
