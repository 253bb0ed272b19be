// Password hashing with argon2id, and the password policy shared by every place that sets one.
import { hash, verify } from '@node-rs/argon2';
import { dictionary } from '@zxcvbn-ts/language-common';

export const MIN_PASSWORD_LENGTH = 12;
export const PASSWORD_TOO_SHORT = `La password deve contenere almeno ${MIN_PASSWORD_LENGTH} caratteri.`;

export const PASSWORD_BLANK = 'La password non può essere composta solo da spazi.';

export const PASSWORD_COMMON = 'Questa password è tra le più diffuse e facili da indovinare: scegline un\'altra.';

// The ranked list of the most common passwords that @zxcvbn-ts/language-common ships (about 49,000, lower case),
// read into a set the first time a password is checked.
let common: Set<string> | undefined;

/** Whether the password is among the most common ones (case aside). */
export function isCommonPassword(password: string): boolean {
  common ??= new Set(dictionary['passwords-common'] as string[]);
  return common.has(password.toLowerCase());
}

/** Why a new password is refused, or undefined when it is acceptable. */
export function passwordProblem(password: string): string | undefined {
  if (!password.trim()) return PASSWORD_BLANK;
  if (password.length < MIN_PASSWORD_LENGTH) return PASSWORD_TOO_SHORT;
  if (isCommonPassword(password)) return PASSWORD_COMMON;
  return undefined;
}

// OWASP's argon2id baseline (19 MiB, 2 passes); algorithm 2 is Argon2id (a const enum the bundler cannot inline).
const OPTIONS = { algorithm: 2, memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;

export function hashPassword(password: string): Promise<string> {
  return hash(password, OPTIONS);
}

export async function verifyPassword(hashed: string | null | undefined, password: string): Promise<boolean> {
  // Without a stored hash still spend the same work, so timing does not tell which e-mails exist.
  if (!hashed) {
    await hash(password, OPTIONS);
    return false;
  }
  return verify(hashed, password).catch(() => false);
}
