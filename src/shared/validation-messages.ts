// The Italian texts of validation, shared by the server's 422 answers and the form; no ajv here, so that light client
// modules (table cells, fixed rows) can use them without loading the validator.

export const REQUIRED_MESSAGE = 'Campo Obbligatorio.';

/** Italian messages for the ajv keywords whose wording the specification or the screens fix. */
export const keywordMessages: Record<string, (params: Record<string, unknown>) => string> = {
  required: () => REQUIRED_MESSAGE,
  maxLength: (p) => `Massimo ${String(p.limit)} caratteri`,
  minLength: (p) => `Almeno ${String(p.limit)} caratteri`,
  minimum: (p) => `Il valore minimo è ${String(p.limit)}`,
  maximum: (p) => `Il valore massimo è ${String(p.limit)}`,
  exclusiveMinimum: (p) => `Il valore deve essere maggiore di ${String(p.limit)}`,
  exclusiveMaximum: (p) => `Il valore deve essere minore di ${String(p.limit)}`,
  pattern: () => 'Formato non valido',
  type: (p) => (p.type === 'integer' ? 'Inserisci un numero intero' : p.type === 'number' ? 'Inserisci un numero' : 'Tipo di dato non valido'),
  enum: () => 'Valore non ammesso',
  const: () => 'Valore non ammesso',
  oneOf: () => 'Valore non ammesso',
  additionalProperties: () => 'Campo non consentito.',
  minItems: (p) => `Almeno ${String(p.limit)} elementi`,
  maxItems: (p) => `Al massimo ${String(p.limit)} elementi`,
  uniqueItems: () => 'Valori duplicati',
};

/** Standard formats not covered by the Italian validators; dates are typed GG/MM/AAAA on screen, where users read this. */
export const formatMessages: Record<string, string> = {
  date: 'Data non valida (GG/MM/AAAA)',
  'date-time': 'Data e ora non valide',
  email: 'Indirizzo email non valido',
};

/** A computed field ("x-computed") whose value sent by the client differs from the one the expression gives. */
export const computedMismatchMessage = (expected: string) => `Il valore calcolato è ${expected}`;
