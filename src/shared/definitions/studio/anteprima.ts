// What the studio's live preview shows of a draft: the resources whose screens it touches (the server serves each as
// it would be once applied, POST /api/definizioni/anteprima).

const RISORSA = /^schemas\/([a-z][a-z0-9_]*)\/(?:resource|entity\.schema|list|form\.ui)\.json$/;

/** The resources whose screens a change touches (their entity, form, list or settings), in the order named. */
export function risorseToccate(changed: Record<string, unknown>): string[] {
  return [...new Set(Object.keys(changed).map((f) => RISORSA.exec(f)?.[1]).filter((r): r is string => r !== undefined))];
}
