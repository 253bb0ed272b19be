// Two-step verification (TOTP, RFC 6238) through otplib, the QR code through qrcode; recovery codes stored as hashes.
import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { generateSecret, generateURI, verify } from 'otplib';
import QRCode from 'qrcode';
import type { Database } from '../db/connection.ts';
import { tokenHash } from './service.ts';

export const MFA_ISSUER = 'Broker Back Office';
const RECOVERY_CODES = 10;
/** One period either side: a phone's clock a little off still works. */
const TOLERANCE_SECONDS = 30;
/** How long the password step of a login waits for its code. */
export const CHALLENGE_MINUTES = 5;

export interface MfaRow {
  secret: string;
  attiva: boolean;
  ultimo_passo: number;
}

export async function mfaOf(db: Database, userId: number): Promise<MfaRow | undefined> {
  const rows = await sql<MfaRow>`SELECT secret, attiva, ultimo_passo::float8 AS ultimo_passo FROM auth_mfa WHERE user_id = ${userId}`.execute(db);
  return rows.rows[0];
}

/** A new secret for `email`, stored unconfirmed (replacing an unconfirmed one), with its otpauth URL and QR code. */
export async function startEnrolment(db: Database, userId: number, email: string): Promise<{ secret: string; otpauth_url: string; qr: string }> {
  const secret = generateSecret();
  await sql`INSERT INTO auth_mfa (user_id, secret) VALUES (${userId}, ${secret})
    ON CONFLICT (user_id) DO UPDATE SET secret = excluded.secret, attiva = false, ultimo_passo = 0, codici_recupero = '[]'::jsonb`.execute(db);
  const url = generateURI({ issuer: MFA_ISSUER, label: email, secret });
  const svg = await QRCode.toString(url, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
  return { secret, otpauth_url: url, qr: `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}` };
}

/**
 * Accepts a TOTP code once: a valid code's time step must be later than the last accepted one, and is stored as
 * such in one statement (two requests racing with the same code: one wins).
 */
export async function acceptCode(db: Database, userId: number, mfa: MfaRow, code: string): Promise<boolean> {
  if (!/^\d{6}$/.test(code)) return false;
  const result = await verify({ secret: mfa.secret, token: code, epochTolerance: TOLERANCE_SECONDS, afterTimeStep: mfa.ultimo_passo || undefined })
    .catch(() => ({ valid: false as const }));
  if (!result.valid || !('timeStep' in result)) return false;
  const updated = await sql`UPDATE auth_mfa SET ultimo_passo = ${result.timeStep} WHERE user_id = ${userId} AND ultimo_passo < ${result.timeStep}
    RETURNING 1`.execute(db);
  return updated.rows.length === 1;
}

function normalizedRecovery(code: string): string {
  return code.toUpperCase().replace(/[^A-Z0-9]/g, '');
}

/** Spends a recovery code: removed in the statement that finds it, so it works once. */
export async function useRecoveryCode(db: Database, userId: number, code: string): Promise<boolean> {
  const normalized = normalizedRecovery(code);
  if (normalized.length !== 10) return false;
  const hash = tokenHash(`recupero:${normalized}`);
  const updated = await sql`UPDATE auth_mfa SET codici_recupero = codici_recupero - ${hash}::text
    WHERE user_id = ${userId} AND attiva AND codici_recupero ? ${hash} RETURNING 1`.execute(db);
  return updated.rows.length === 1;
}

/** Ten new recovery codes (50 random bits each, shown once as XXXXX-XXXXX); their hashes replace the stored ones. */
export async function confirmEnrolment(db: Database, userId: number): Promise<string[]> {
  const alphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
  const codes = Array.from({ length: RECOVERY_CODES }, () => {
    const bytes = randomBytes(10);
    const text = [...bytes].map((b) => alphabet[b % alphabet.length]).join('');
    return `${text.slice(0, 5)}-${text.slice(5)}`;
  });
  const hashes = codes.map((c) => tokenHash(`recupero:${normalizedRecovery(c)}`));
  await sql`UPDATE auth_mfa SET attiva = true, codici_recupero = ${JSON.stringify(hashes)}::jsonb WHERE user_id = ${userId}`.execute(db);
  return codes;
}

/** The password step of a login whose user has verification on: a token that the code step exchanges for a session. */
export async function issueChallenge(db: Database, userId: number): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  await sql`DELETE FROM auth_mfa_challenge WHERE expires_at < now()`.execute(db);
  await sql`INSERT INTO auth_mfa_challenge (token_hash, user_id, expires_at)
    VALUES (${tokenHash(token)}, ${userId}, now() + make_interval(mins => ${CHALLENGE_MINUTES}))`.execute(db);
  return token;
}

export const MFA_REQUIRED_MESSAGE = 'Attiva la verifica in due passaggi per continuare.';

export interface MfaExemption {
  motivo: string;
  concessa_da: string;
  concessa_il: string;
}

/** Lets a user off their role's required verification (replacing an earlier reason); the caller records it. */
export async function exemptFromMfa(db: Database, userId: number, motivo: string, by: string): Promise<void> {
  await sql`INSERT INTO auth_mfa_esenzione (user_id, motivo, concessa_da) VALUES (${userId}, ${motivo}, ${by})
    ON CONFLICT (user_id) DO UPDATE SET motivo = excluded.motivo, concessa_da = excluded.concessa_da, concessa_il = now()`.execute(db);
}

export async function mfaExemptionOf(db: Database, userId: number): Promise<MfaExemption | undefined> {
  const rows = await sql<MfaExemption>`SELECT motivo, concessa_da, to_json(concessa_il) #>> '{}' AS concessa_il
    FROM auth_mfa_esenzione WHERE user_id = ${userId}`.execute(db);
  return rows.rows[0];
}

/** Whether one of the roles requires two-step verification (ruoli.json mfa_richiesta). */
export async function rolesRequireMfa(db: Database, roles: string[]): Promise<boolean> {
  if (!roles.length) return false;
  const rows = await sql`SELECT 1 FROM auth_role WHERE mfa_richiesta AND name = ANY(${roles}::text[])`.execute(db);
  return rows.rows.length > 0;
}
