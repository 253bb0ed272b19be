// Single sign-on by OpenID Connect (authorization code with PKCE) through openid-client; optional, by environment.
import { randomBytes } from 'node:crypto';
import * as client from 'openid-client';
import { sql } from 'kysely';
import type { Database } from '../db/connection.ts';
import { tokenHash } from './service.ts';

export interface OidcSettings {
  issuer: string;
  clientId: string;
  clientSecret: string;
  redirectUrl: string;
  /** Shown on the login page: 'Accedi con <nome>'. */
  name: string;
}

/**
 * The settings when issuer, client id and secret are set (none: single sign-on off); the redirect URL defaults to
 * {APP_URL}/api/sso/ritorno, the route that receives the provider's answer.
 */
export function oidcSettings(config: Record<string, unknown>): OidcSettings | undefined {
  const { OIDC_ISSUER, OIDC_CLIENT_ID, OIDC_CLIENT_SECRET, OIDC_REDIRECT_URL, OIDC_NOME, APP_URL } = config as Record<string, string | undefined>;
  if (!OIDC_ISSUER || !OIDC_CLIENT_ID || !OIDC_CLIENT_SECRET) return undefined;
  return {
    issuer: OIDC_ISSUER, clientId: OIDC_CLIENT_ID, clientSecret: OIDC_CLIENT_SECRET,
    redirectUrl: OIDC_REDIRECT_URL || `${APP_URL}/api/sso/ritorno`, name: OIDC_NOME || new URL(OIDC_ISSUER).hostname,
  };
}

/** How long the provider's round trip may take, and how long the one-time ticket for the browser lives. */
const STATE_MINUTES = 10;
const TICKET_SECONDS = 60;

export class OidcClient {
  private configuration?: Promise<client.Configuration>;

  constructor(readonly settings: OidcSettings) {}

  /** Discovery once, when first needed (the provider may start after this server). */
  private config(): Promise<client.Configuration> {
    const { issuer, clientId, clientSecret } = this.settings;
    // Plain http only for a provider on this machine (tests, development).
    const local = /^http:\/\/(127\.0\.0\.1|localhost)(:\d+)?(\/|$)/.test(issuer);
    this.configuration ??= client.discovery(new URL(issuer), clientId, clientSecret, undefined, local ? { execute: [client.allowInsecureRequests] } : undefined)
      .catch((error: unknown) => {
        this.configuration = undefined;
        throw error;
      });
    return this.configuration;
  }

  /** The provider's address for this login, its state and PKCE verifier stored hashed-by-state in PostgreSQL. */
  async start(db: Database): Promise<string> {
    const config = await this.config();
    const verifier = client.randomPKCECodeVerifier();
    const state = client.randomState();
    const nonce = client.randomNonce();
    await sql`DELETE FROM auth_oidc WHERE expires_at < now()`.execute(db);
    await sql`INSERT INTO auth_oidc (token_hash, verifier, nonce, expires_at)
      VALUES (${tokenHash(`stato:${state}`)}, ${verifier}, ${nonce}, now() + make_interval(mins => ${STATE_MINUTES}))`.execute(db);
    return client.buildAuthorizationUrl(config, {
      redirect_uri: this.settings.redirectUrl,
      scope: 'openid email profile',
      code_challenge: await client.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      state,
      nonce,
    }).href;
  }

  /**
   * The provider came back with `query`: its state is spent, the code exchanged (PKCE, nonce checked by the library);
   * answers the e-mail when the provider says it is verified, undefined otherwise.
   */
  async finish(db: Database, query: Record<string, string>): Promise<string | undefined> {
    const state = query.state ?? '';
    const row = (await sql<{ verifier: string; nonce: string }>`DELETE FROM auth_oidc
      WHERE token_hash = ${tokenHash(`stato:${state}`)} AND verifier IS NOT NULL AND expires_at > now() RETURNING verifier, nonce`.execute(db)).rows[0];
    if (!row) return undefined;
    const config = await this.config();
    const current = new URL(this.settings.redirectUrl);
    for (const [key, value] of Object.entries(query)) current.searchParams.set(key, value);
    const tokens = await client.authorizationCodeGrant(config, current, { pkceCodeVerifier: row.verifier, expectedState: state, expectedNonce: row.nonce });
    const idToken = tokens.claims();
    if (!idToken) return undefined;
    // Providers may keep e-mail out of the ID token (it then comes from userinfo, checked against the same subject).
    const claims = typeof idToken.email === 'string' ? idToken : await client.fetchUserInfo(config, tokens.access_token, idToken.sub);
    const email = typeof claims.email === 'string' ? claims.email : undefined;
    return email && claims.email_verified === true ? email : undefined;
  }
}

/** A one-time ticket the login page exchanges for the session (the token never travels in an address). */
export async function issueTicket(db: Database, userId: number): Promise<string> {
  const ticket = randomBytes(32).toString('base64url');
  await sql`INSERT INTO auth_oidc (token_hash, user_id, expires_at)
    VALUES (${tokenHash(`biglietto:${ticket}`)}, ${userId}, now() + make_interval(secs => ${TICKET_SECONDS}))`.execute(db);
  return ticket;
}

/** Spends a ticket: the user it was for, once. */
export async function spendTicket(db: Database, ticket: string): Promise<number | undefined> {
  const row = (await sql<{ user_id: number }>`DELETE FROM auth_oidc
    WHERE token_hash = ${tokenHash(`biglietto:${ticket}`)} AND user_id IS NOT NULL AND expires_at > now() RETURNING user_id`.execute(db)).rows[0];
  return row?.user_id;
}
