// "x-warn-pattern" of an entity schema: advice, never an error, when a field's value does not match (spec 001 §5: the
// phone without +39). One reading for the server's save warnings and the form's warning under the field.

export interface WarnPattern {
  pattern: string;
  message: string;
}

/** The schema's rules by field name (none when it declares none). */
export function warnPatternsOf(schema: Record<string, unknown> | undefined): Record<string, WarnPattern> {
  const declared = schema?.['x-warn-pattern'];
  return declared && typeof declared === 'object' ? (declared as Record<string, WarnPattern>) : {};
}

/** The rule's message when a filled value does not match it. */
export function patternWarning(rule: WarnPattern | undefined, value: unknown): string | undefined {
  if (!rule || typeof value !== 'string' || value === '') return undefined;
  return new RegExp(rule.pattern).test(value) ? undefined : rule.message;
}
