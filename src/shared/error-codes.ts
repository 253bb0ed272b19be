// Stable error codes beside the Italian message ({message, code, errors}): the server sets them, the client decides on them, never on the text.

export const ERROR_CODES = [
  /** 400: a request the API cannot read (malformed JSON, wrong encoding). */
  'BAD_REQUEST',
  /** 401: no session, or it expired or was revoked. */
  'UNAUTHENTICATED',
  /** 403: the session lacks the permission or the row is outside its scope. */
  'FORBIDDEN',
  /** 403: the user's role requires two-step verification and they have not turned it on: the session may only enrol. */
  'MFA_REQUIRED',
  /** 404: no such record or route. */
  'NOT_FOUND',
  /** 409: another user saved the record first; the body carries `current`. */
  'STALE_VERSION',
  /** 409: the workflow does not allow the action in the record's status. */
  'WORKFLOW_REFUSED',
  /** 409: the quotation's pricing inputs changed after its calculation: calculate again. */
  'STALE_CALCULATION',
  /** 409: the record cannot be deleted while other records point at it (`dependant`, `dependants`). */
  'IN_USE',
  /** 409: a call to a third party for the same record is still in progress. */
  'IN_PROGRESS',
  /** 409: the notices shown to the customer changed; the body carries the current ones (`informative`). */
  'NOTICES_CHANGED',
  /** 409: any other refusal of the record's current state. */
  'CONFLICT',
  /** 413 */
  'TOO_LARGE',
  /** 415 */
  'UNSUPPORTED_MEDIA_TYPE',
  /** 422: field errors in `errors`. */
  'VALIDATION',
  /** 428: a precondition (e.g. the record's version) is required. */
  'PRECONDITION_REQUIRED',
  /** 429: too many attempts or requests; `Retry-After` says when to try again. */
  'RATE_LIMITED',
  /** 500 */
  'INTERNAL',
  /** 502: a third party (insurer, registry, Koala, signature provider) answered with an error. */
  'THIRD_PARTY_ERROR',
  /** 503: the site is in maintenance. */
  'MAINTENANCE',
  /** 503: a third party or a service is unavailable for now. */
  'UNAVAILABLE',
  /** 503: the definitions changed on another instance while this request ran on the old ones: send it again. */
  'DEFINITIONS_CHANGED',
  /** 504: a third party did not answer in time. */
  'THIRD_PARTY_TIMEOUT',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

const BY_STATUS: Record<number, ErrorCode> = {
  400: 'BAD_REQUEST', 401: 'UNAUTHENTICATED', 403: 'FORBIDDEN', 404: 'NOT_FOUND', 409: 'CONFLICT', 413: 'TOO_LARGE', 415: 'UNSUPPORTED_MEDIA_TYPE',
  422: 'VALIDATION', 428: 'PRECONDITION_REQUIRED', 429: 'RATE_LIMITED', 500: 'INTERNAL', 502: 'THIRD_PARTY_ERROR', 503: 'UNAVAILABLE', 504: 'THIRD_PARTY_TIMEOUT',
};

/** The code of an error raised without a more specific one. */
export function codeForStatus(status: number): ErrorCode {
  return BY_STATUS[status] ?? (status >= 500 ? 'INTERNAL' : 'BAD_REQUEST');
}
