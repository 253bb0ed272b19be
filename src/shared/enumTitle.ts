// How a bare enum code reads when its definition gives no title (oneOf const/title gives one):
// DIPENDENTE_TEMPO_INDETERMINATO → "Dipendente tempo indeterminato", auto_storica_itas → "Auto storica itas".
export function enumTitle(value: unknown): string {
  const text = String(value ?? '');
  if (!/^[A-Za-z][A-Za-z0-9]*(?:_[A-Za-z0-9]+)+$|^[A-Z]{4,}$/.test(text)) return text;
  const words = text.toLowerCase().replace(/_/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** Value → title of a property's options: oneOf titles, else its enum's codes made readable. */
export function optionTitles(prop: { oneOf?: unknown; enum?: unknown; items?: { oneOf?: unknown; enum?: unknown } } | undefined): Map<unknown, string> | undefined {
  const source = prop?.oneOf || prop?.enum ? prop : prop?.items;
  const options = source?.oneOf as Array<{ const?: unknown; title?: string }> | undefined;
  if (Array.isArray(options) && options.every((o) => o && typeof o === 'object' && 'const' in o)) {
    return new Map(options.map((o) => [o.const, o.title ?? enumTitle(o.const)]));
  }
  if (Array.isArray(source?.enum)) return new Map((source.enum as unknown[]).map((v) => [v, enumTitle(v)]));
  return undefined;
}
