// The historic-car quotation machine's own guards (workflows/quotazione_auto_storica.json, spec 001 §4): the server's
// quotation domain registers them for the machine, the quotation screen builds its Workflow with them.
import type { GuardArgs, GuardSet } from '../../workflow/guards.ts';

export const QUOTAZIONE_MACHINE = 'quotazione_auto_storica';

const DEROGA_COLOURS = new Set(['g', 'r', 'giallo', 'rosso']);

function derogaNecessaria({ context }: GuardArgs): boolean {
  const colore = String(context.record.colore ?? '').toLowerCase();
  return context.record.minoreAnni === true || DEROGA_COLOURS.has(colore);
}

export const QUOTAZIONE_GUARDS: GuardSet = {
  // Drivers under 25 or a yellow/red vehicle need an approver's derogation (spec 001 §4).
  derogaNecessaria: (args) => derogaNecessaria(args),
  derogaNonNecessaria: (args) => !derogaNecessaria(args),
  // A quotation can be confirmed only with a calculated preview.
  calcolata: ({ context }) => Array.isArray(context.record.preventivi) && context.record.preventivi.length > 0,
  senzaRinnovo: ({ context }) => !context.record.rinnovo_id,
  // 'Policy issued successfully' is code above 8 and id not 11 (spec 001 §4).
  polizzaEmessa: ({ context }) => Number(context.stato.code) > 8 && context.stato.id !== 11,
};
