// SQL pieces the finance views share: who the customer is, as a label.

/** "COGNOME NOME" of the customer row aliased `c` (a company keeps its name in nome). */
export const CONTRAENTE_SQL = `nullif(trim(concat_ws(' ', c.cognome, c.nome)), '')`;
