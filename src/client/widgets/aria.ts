// Ids that tie an input to its error, description and help texts (same convention as rjsf: `${id}__error`).

export const errorIdOf = (id: string) => `${id}__error`;
export const descriptionIdOf = (id: string) => `${id}__description`;
export const helpIdOf = (id: string) => `${id}__help`;

/** Only ids that are actually rendered, so assistive technology never follows a dangling reference. */
export function describedBy(id: string, parts: { error?: boolean; description?: boolean; help?: boolean }): string | undefined {
  const ids = [parts.error && errorIdOf(id), parts.description && descriptionIdOf(id), parts.help && helpIdOf(id)].filter(Boolean);
  return ids.length ? ids.join(' ') : undefined;
}
