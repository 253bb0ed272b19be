// What the studio's live preview shows of a draft: the resources whose screens it touches (the server serves each as
// it would be once applied, POST /api/definizioni/anteprima).

const RISORSA = /^schemas\/([a-z][a-z0-9_]*)\/(?:resource|entity\.schema|list|form\.ui)\.json$/;

/** The resources whose screens a change touches (their entity, form, list or settings), in the order named. */
export function risorseToccate(changed: Record<string, unknown>): string[] {
  return [...new Set(Object.keys(changed).map((f) => RISORSA.exec(f)?.[1]).filter((r): r is string => r !== undefined))];
}

/**
 * The order the preview reads its records in: the draft's default order where the list served now can sort by it (the
 * same fields the list route accepts: the record's own, no object or array, none write-only); otherwise none, which is
 * the served list's own default, since a field the draft adds is not in the table yet.
 */
export function ordineAnteprima(defaultSort: string | undefined, servedProperties: Record<string, { type?: unknown; writeOnly?: boolean }>): string | undefined {
  if (!defaultSort) return undefined;
  const ordinabile = (key: string) => {
    const name = key.replace(/^-/, '');
    const field = Object.hasOwn(servedProperties, name) ? servedProperties[name] : undefined;
    return name === 'id' || (field !== undefined && !field.writeOnly && field.type !== 'object' && field.type !== 'array');
  };
  return defaultSort.split(',').every(ordinabile) ? defaultSort : undefined;
}
