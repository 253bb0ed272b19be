// Login, logout, the current user and their own account; `authenticate` guards every non-public route.
import fp from 'fastify-plugin';
import type { FastifyInstance, FastifyRequest, onRequestHookHandler } from 'fastify';
import { sql } from 'kysely';
import { HttpError, invalid, notFound, unauthenticated } from '../errors.ts';
import { passwordProblem, verifyPassword } from '../auth/passwords.ts';
import {
  USERS_RESOURCE, THROTTLE_MESSAGE, SESSION_EXPIRED, cachedSession, clearFailures, issueToken, recordFailure, revokeToken, revokeUserTokens, sessionForHash,
  throttleKeys, throttled, tokenHash, touchIntervalMs, touchSession, userForToken, type ThrottleKeys,
} from '../auth/service.ts';
import type { SessionRow } from '../cache.ts';
import { initials, type AuthUser } from '../auth/user.ts';
import { ResourceRepository } from '../resources/repository.ts';
import { isMaintenance } from './maintenance.ts';
import { registraAccesso } from '../storico/contesto.ts';
import {
  MFA_REQUIRED_MESSAGE, acceptCode, confirmEnrolment, exemptFromMfa, issueChallenge, mfaExemptionOf, mfaOf, rolesRequireMfa, startEnrolment, useRecoveryCode,
} from '../auth/mfa.ts';
import { requirePermission } from '../auth/guards.ts';
import { enqueueEmail } from '../mail/outbox.ts';
import { OidcClient, issueTicket, oidcSettings, spendTicket } from '../auth/oidc.ts';
import { errorResponses } from '../http/openapi.ts';
import { randomBytes } from 'node:crypto';

const LOGIN_FAILED = 'Credenziali non valide.';
export const API_TOKEN_REFUSED = "Il token nell'indirizzo (api_token) non è accettato: invia il token nell'intestazione Authorization (Authorization: Bearer <token>).";

function environmentFlags(app: FastifyInstance) {
  return {
    ambiente: app.ctx.config.AMBIENTE,
    modalita_emissione: app.ctx.config.ISSUE_MODE,
    modalita_anagrafica: app.ctx.config.REGISTRY_MODE,
  };
}

function sessionBody(app: FastifyInstance, user: AuthUser) {
  return {
    permissions: user.permissions,
    roles: user.roles,
    user: { id: user.id, name: user.name, initials: initials(user.name), email: user.email, collaboratore_id: user.collaboratore_id },
    environment: environmentFlags(app),
    // The session may only enrol: the client takes the user to the enrolment.
    mfa_da_attivare: user.mfaDaAttivare === true,
  };
}

// What a session whose role requires verification may reach before the user has turned it on.
const ENROLMENT_ROUTES = new Set(['/api/user', '/api/api_logout', '/api/account/mfa', '/api/account/mfa/attiva', '/api/account/mfa/conferma']);

export function bearer(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (header?.startsWith('Bearer ')) return header.slice(7).trim() || undefined;
  return undefined;
}

export default fp(async (app: FastifyInstance) => {
  app.decorateRequest('user', null as unknown as AuthUser);

  /** A password check's turn (login, the own account's current password): refused, or delayed behind the account's queue. */
  async function takeTurn(keys: ThrottleKeys, field: string): Promise<void> {
    const throttle = await throttled(app.ctx.db, keys, app.ctx.config.LOGIN_SLOW_BASE_MS);
    if (throttle.refused) throw new HttpError(429, THROTTLE_MESSAGE, { [field]: [THROTTLE_MESSAGE] });
    if (throttle.delayMs) await new Promise((resolve) => setTimeout(resolve, throttle.delayMs));
  }
  // A callback hook: a session the cache holds (nearly always) goes on without a promise or a statement of its own.
  app.decorate<onRequestHookHandler>('authenticate', (request, _reply, done) => {
    // Spec 002 §7.4 sends api_token in the query: a token in a URL leaks into logs and Referer headers
    // (OWASP ASVS 3.1.1), so it is refused even beside a valid header, and the answer says what to do.
    if (Object.hasOwn((request.query ?? {}) as object, 'api_token')) return done(new HttpError(401, API_TOKEN_REFUSED));
    const token = bearer(request);
    if (!token || token === 'undefined') return done(unauthenticated());
    const { cache, db } = app.ctx;
    const idleMs = app.ctx.config.SESSION_IDLE_MINUTES * 60_000;
    const now = Date.now();
    const hash = tokenHash(token);
    // The last use is written at most once per touchIntervalMs; between writes the cached row carries it.
    const use = (row: SessionRow, user: AuthUser) => {
      request.user = user;
      if (user.mfaDaAttivare && !ENROLMENT_ROUTES.has(request.routeOptions.url ?? '')) {
        return done(new HttpError(403, MFA_REQUIRED_MESSAGE, undefined, undefined, 'MFA_REQUIRED'));
      }
      if (now - row.usedAt < touchIntervalMs(idleMs)) return done();
      row.usedAt = now;
      touchSession(db, row.tokenId).then(() => done(), done);
    };
    const cached = cache.unsettled ? undefined : cachedSession(hash, cache);
    // A cached row that looks idle is read again: another instance may have recorded a later use.
    if (cached && now - cached.row.usedAt <= idleMs) return use(cached.row, cached.user);
    cache.settle().then(() => sessionForHash(db, hash, cache)).then((found) => {
      if (!found) return done(unauthenticated());
      if (now - found.row.usedAt > idleMs) return done(new HttpError(401, SESSION_EXPIRED));
      use(found.row, found.user);
    }, done);
  });

  app.post('/api/login', {
    schema: {
      body: {
        type: 'object',
        properties: { email: { type: 'string', maxLength: 255 }, password: { type: 'string', maxLength: 200 } },
      },
    },
  }, async (request, reply) => {
    const { db } = app.ctx;
    if (await isMaintenance(app)) throw new HttpError(503, 'Sito in aggiornamento', undefined, { maintenance: true }, 'MAINTENANCE');
    const { email = '', password = '' } = (request.body ?? {}) as { email?: string; password?: string };
    const missing: Record<string, string[]> = {};
    if (!email.trim()) missing.email = ['Campo Obbligatorio.'];
    if (!password) missing.password = ['Campo Obbligatorio.'];
    if (Object.keys(missing).length) throw invalid(missing);
    const keys = throttleKeys(email, request.ip);
    await takeTurn(keys, 'authentication');
    const row = await sql<{ id: number; password: string | null; attivo: boolean }>`
      SELECT id, password, attivo FROM ${sql.table(USERS_RESOURCE)} WHERE lower(email) = lower(${email.trim()})`.execute(db);
    const found = row.rows[0];
    const ok = await verifyPassword(found?.password, password);
    if (!found || !ok || !found.attivo) {
      await recordFailure(db, keys);
      await registraAccesso(db, USERS_RESOURCE, 'login_fallito', { id: found?.id ?? null, name: email.trim() });
      throw invalid({ authentication: [LOGIN_FAILED] }, LOGIN_FAILED);
    }
    reply.header('cache-control', 'no-store');
    // With verification on, the password is only the first step: the counters are cleared by the code, so a
    // guesser who knows the password still meets the same throttle on the codes.
    if ((await mfaOf(db, found.id))?.attiva) return { mfa_richiesta: true, token_mfa: await issueChallenge(db, found.id) };
    await clearFailures(db, keys);
    return openSession(request, found.id);
  });

  async function openSession(request: FastifyRequest, userId: number, sso = false) {
    const { db } = app.ctx;
    const token = await issueToken(db, userId, app.ctx.config.TOKEN_TTL_HOURS, { userAgent: request.headers['user-agent'], address: request.ip, sso });
    const user = (await userForToken(db, token, app.ctx.cache))!;
    await registraAccesso(db, USERS_RESOURCE, sso ? 'login_sso' : 'login', user);
    return { token, ...sessionBody(app, user) };
  }

  const CODE_REFUSED = 'Codice non valido.';

  // The second step: a code of the authenticator app (once) or a recovery code (once), throttled like a password.
  app.post('/api/login/mfa', {
    schema: {
      body: {
        type: 'object',
        properties: { token_mfa: { type: 'string', maxLength: 100 }, codice: { type: 'string', maxLength: 40 } },
      },
    },
  }, async (request, reply) => {
    const { db } = app.ctx;
    if (await isMaintenance(app)) throw new HttpError(503, 'Sito in aggiornamento', undefined, { maintenance: true }, 'MAINTENANCE');
    const { token_mfa: challenge = '', codice = '' } = (request.body ?? {}) as { token_mfa?: string; codice?: string };
    if (!codice.trim()) throw invalid({ codice: ['Campo Obbligatorio.'] });
    const rows = await sql<{ id: number; email: string; name: string }>`
      SELECT u.id, u.email, u.name FROM auth_mfa_challenge c JOIN ${sql.table(USERS_RESOURCE)} u ON u.id = c.user_id
      WHERE c.token_hash = ${tokenHash(challenge)} AND c.expires_at > now() AND u.attivo`.execute(db);
    const found = rows.rows[0];
    if (!found) throw new HttpError(401, 'Richiesta di accesso scaduta: inserisci di nuovo e-mail e password.');
    const keys = throttleKeys(found.email, request.ip);
    await takeTurn(keys, 'codice');
    const mfa = await mfaOf(db, found.id);
    const code = codice.replace(/\s/g, '');
    const byApp = !!mfa?.attiva && await acceptCode(db, found.id, mfa, code);
    const byRecovery = !byApp && !!mfa?.attiva && await useRecoveryCode(db, found.id, code);
    if (!byApp && !byRecovery) {
      await recordFailure(db, keys);
      await registraAccesso(db, USERS_RESOURCE, 'mfa_fallito', found);
      throw invalid({ codice: [CODE_REFUSED] }, CODE_REFUSED);
    }
    await db.deleteFrom('auth_mfa_challenge').where('token_hash', '=', tokenHash(challenge)).execute();
    await clearFailures(db, keys);
    if (byRecovery) await registraAccesso(db, USERS_RESOURCE, 'codice_recupero_usato', found);
    reply.header('cache-control', 'no-store');
    return openSession(request, found.id);
  });

  // Single sign-on: the login page's button starts here; the provider comes back to OIDC_REDIRECT_URL (/api/sso/ritorno),
  // which sends the browser to /login#sso=<ticket> (or ?sso=<refusal>); the page exchanges the ticket for the session.
  const sso = oidcSettings(app.ctx.config as unknown as Record<string, unknown>);
  const oidc = sso && new OidcClient(sso);
  const SSO_OFF = "L'accesso con un fornitore di identità non è configurato.";

  app.get('/api/sso', {
    schema: { response: { 200: { type: 'object', required: ['nome'], properties: { nome: { type: ['string', 'null'] } } } } },
  }, async () => ({ nome: sso?.name ?? null }));

  app.get('/api/sso/inizio', {
    // No input; the answer is the redirect to the provider (or the refusal when single sign-on is off or unreachable).
    schema: { summary: "Avvia l'accesso con il fornitore di identità", response: { 302: { description: 'Verso il fornitore di identità', type: 'null' }, ...errorResponses(404, 502) } },
  }, async (_request, reply) => {
    if (!oidc) throw new HttpError(404, SSO_OFF);
    const url = await oidc.start(app.ctx.db).catch((error: unknown) => {
      app.log.warn({ err: error }, 'OIDC provider unreachable');
      throw new HttpError(502, 'Il fornitore di identità non risponde: riprova più tardi o accedi con e-mail e password.');
    });
    return reply.header('cache-control', 'no-store').redirect(url, 302);
  });

  app.get('/api/sso/ritorno', {
    schema: { querystring: { type: 'object', additionalProperties: { type: 'string', maxLength: 2000 } } },
  }, async (request, reply) => {
    if (!oidc) throw new HttpError(404, SSO_OFF);
    const { db } = app.ctx;
    const back = (where: string) => reply.header('cache-control', 'no-store').redirect(where, 302);
    const email = await oidc.finish(db, request.query as Record<string, string>).catch((error: unknown) => {
      app.log.warn({ err: error }, 'OIDC login failed');
      return undefined;
    });
    if (!email) return back('/login?sso=errore');
    const found = (await sql<{ id: number; name: string }>`
      SELECT id, name FROM ${sql.table(USERS_RESOURCE)} WHERE lower(email) = lower(${email}) AND attivo`.execute(db)).rows[0];
    // No account is created by a login: an e-mail no active user has is refused (and recorded).
    if (!found) {
      await registraAccesso(db, USERS_RESOURCE, 'login_sso_rifiutato', { id: null, name: email });
      return back('/login?sso=sconosciuto');
    }
    return back(`/login#sso=${await issueTicket(db, found.id)}`);
  });

  app.post('/api/sso/sessione', {
    schema: { body: { type: ['object', 'null'], properties: { biglietto: { type: 'string', maxLength: 100 } } } },
  }, async (request, reply) => {
    const biglietto = ((request.body ?? {}) as { biglietto?: string }).biglietto ?? '';
    const userId = biglietto ? await spendTicket(app.ctx.db, biglietto) : undefined;
    if (userId === undefined) throw new HttpError(401, 'Accesso con il fornitore di identità scaduto: riprova.');
    reply.header('cache-control', 'no-store');
    return openSession(request, userId, true);
  });

  const RESET_MINUTES = 30;
  const RESET_SENT = "Se l'indirizzo appartiene a un utente attivo, riceverà un'e-mail con il link per reimpostare la password (valido 30 minuti).";
  const RESET_INVALID = 'Il link per reimpostare la password non è valido o è scaduto: richiedine uno nuovo.';

  // 'Password dimenticata?': the same answer whether the address exists or not; the link is single use, 30 minutes.
  app.post('/api/password/dimenticata', {
    schema: {
      body: { type: ['object', 'null'], properties: { email: { type: 'string', maxLength: 255 } } },
      response: { 200: { type: 'object', required: ['message'], properties: { message: { type: 'string' } } } },
    },
  }, async (request) => {
    const { db } = app.ctx;
    if (await isMaintenance(app)) throw new HttpError(503, 'Sito in aggiornamento', undefined, { maintenance: true }, 'MAINTENANCE');
    const email = ((request.body ?? {}) as { email?: string }).email?.trim() ?? '';
    if (!email) throw invalid({ email: ['Campo Obbligatorio.'] });
    // An address or account already refused for guessing is refused here too (the public routes' per-address limit
    // bounds the rest); one live link per user, so repeated requests void the earlier links.
    await takeTurn(throttleKeys(email, request.ip), 'email');
    const found = (await sql<{ id: number; name: string; email: string }>`
      SELECT id, name, email FROM ${sql.table(USERS_RESOURCE)} WHERE lower(email) = lower(${email}) AND attivo`.execute(db)).rows[0];
    if (found) {
      const token = randomBytes(32).toString('base64url');
      const link = `${app.ctx.config.APP_URL}/reimposta-password?token=${token}`;
      await db.transaction().execute(async (trx) => {
        // One live link at a time: a new request voids the earlier ones.
        await sql`DELETE FROM auth_password_reset WHERE user_id = ${found.id} OR expires_at < now() - interval '1 day'`.execute(trx);
        await sql`INSERT INTO auth_password_reset (token_hash, user_id, expires_at)
          VALUES (${tokenHash(token)}, ${found.id}, now() + make_interval(mins => ${RESET_MINUTES}))`.execute(trx);
        await enqueueEmail(trx, {
          to: found.email,
          subject: 'Reimpostazione della password',
          body: `Buongiorno ${found.name},\n\nper scegliere una nuova password apri questo link entro ${RESET_MINUTES} minuti (vale una sola volta):\n${link}\n\n`
            + 'Se non hai chiesto tu di reimpostare la password, ignora questo messaggio: la password attuale resta valida.\n',
          resource: USERS_RESOURCE, recordId: found.id, event: 'reset_password',
        });
        await registraAccesso(trx, USERS_RESOURCE, 'reset_password_richiesto', found);
      });
    }
    return { message: RESET_SENT };
  });

  app.post('/api/password/reimposta', {
    schema: {
      body: { type: ['object', 'null'], properties: { token: { type: 'string', maxLength: 100 }, password: { type: 'string', maxLength: 200 } } },
      response: { 200: { type: 'object', required: ['message'], properties: { message: { type: 'string' } } } },
    },
  }, async (request) => {
    const { db } = app.ctx;
    if (await isMaintenance(app)) throw new HttpError(503, 'Sito in aggiornamento', undefined, { maintenance: true }, 'MAINTENANCE');
    const { token = '', password = '' } = (request.body ?? {}) as { token?: string; password?: string };
    const problem = password ? passwordProblem(password) : 'Campo Obbligatorio.';
    if (problem) throw invalid({ password: [problem] });
    const users = new ResourceRepository(app.ctx.definitions.resources.get(USERS_RESOURCE)!, app.ctx);
    const done = await db.transaction().execute(async (trx) => {
      // Spent in the statement that finds it: two requests with the same link, one wins.
      const spent = await sql<{ user_id: number }>`UPDATE auth_password_reset SET used_at = now()
        WHERE token_hash = ${tokenHash(token)} AND used_at IS NULL AND expires_at > now() RETURNING user_id`.execute(trx);
      const userId = spent.rows[0]?.user_id;
      if (userId === undefined) return false;
      const row = await users.lockRow(trx, userId);
      if (!row.attivo) return false;
      const actor = { id: userId, name: String(row.name), email: String(row.email), collaboratore_id: null, tokenId: 0, roles: [], permissions: [] };
      // Hashed by the repository, as the user resource declares it secret; the write is in the record's history.
      await users.writeOnBehalf(trx, actor, row, { password });
      // A reset ends every session of the user, everywhere.
      await revokeUserTokens(trx, userId);
      await registraAccesso(trx, USERS_RESOURCE, 'reset_password', actor);
      return true;
    });
    if (!done) throw invalid({ token: [RESET_INVALID] }, RESET_INVALID);
    return { message: 'Password reimpostata. Accedi con la nuova password.' };
  });

  app.register(async (scoped) => {
    scoped.addHook('onRequest', app.authenticate);

    scoped.get('/api/api_logout', async (request) => {
      await revokeToken(app.ctx.db, request.user.tokenId);
      await registraAccesso(app.ctx.db, USERS_RESOURCE, 'logout', request.user);
      // Other instances learn it by notification; this one forgets at once (a GET is not counted as a write).
      app.ctx.cache.forgetSession(tokenHash(bearer(request)!));
      return { message: 'Logout effettuato.' };
    });

    scoped.get('/api/user', async (request) => sessionBody(app, request.user));

    /** The own password, checked as a login's is (counted and slowed down on the same account); an error when wrong. */
    async function ownPasswordProblem(request: FastifyRequest, password: string | undefined, field: string): Promise<Record<string, string[]>> {
      if (!password) return { [field]: ['Campo Obbligatorio.'] };
      const { db } = app.ctx;
      const stored = await sql<{ password: string | null }>`SELECT password FROM ${sql.table(USERS_RESOURCE)} WHERE id = ${request.user.id}`.execute(db);
      const keys = throttleKeys(request.user.email, request.ip);
      await takeTurn(keys, field);
      if (await verifyPassword(stored.rows[0]?.password, password)) {
        await clearFailures(db, keys);
        return {};
      }
      await recordFailure(db, keys);
      return { [field]: ['La password attuale non è corretta.'] };
    }

    /** A code of the own authenticator app, counted in the same throttle as passwords; an error when wrong. */
    async function ownCodeProblem(request: FastifyRequest, code: string | undefined, enrolled: boolean): Promise<Record<string, string[]>> {
      if (!code) return { codice: ['Campo Obbligatorio.'] };
      const { db } = app.ctx;
      const keys = throttleKeys(request.user.email, request.ip);
      await takeTurn(keys, 'codice');
      const mfa = await mfaOf(db, request.user.id);
      if (mfa && mfa.attiva === enrolled && await acceptCode(db, request.user.id, mfa, code.replace(/\s/g, ''))) return {};
      await recordFailure(db, keys);
      return { codice: [CODE_REFUSED] };
    }

    const ALREADY_ON = 'La verifica in due passaggi è già attiva.';
    const MFA_KEPT = 'Il tuo ruolo richiede la verifica in due passaggi: non può essere disattivata.';

    // The own verification as the account dialog shows it: on or not, required by the role, exempted.
    scoped.get('/api/account/mfa', {
      schema: {
        response: { 200: { type: 'object', required: ['attiva', 'richiesta', 'esente'], properties: { attiva: { type: 'boolean' }, richiesta: { type: 'boolean' }, esente: { type: 'boolean' } } } },
      },
    }, async (request, reply) => {
      const { db } = app.ctx;
      reply.header('cache-control', 'no-store');
      return {
        attiva: (await mfaOf(db, request.user.id))?.attiva === true,
        richiesta: await rolesRequireMfa(db, request.user.roles),
        esente: !!(await mfaExemptionOf(db, request.user.id)),
      };
    });

    scoped.post('/api/account/mfa/attiva', {
      schema: {
        body: { type: 'object', properties: { password: { type: 'string', maxLength: 200 } } },
        response: { 200: { type: 'object', required: ['secret', 'otpauth_url', 'qr'], properties: { secret: { type: 'string' }, otpauth_url: { type: 'string' }, qr: { type: 'string' } } } },
      },
    }, async (request, reply) => {
      const { password } = (request.body ?? {}) as { password?: string };
      const errors = await ownPasswordProblem(request, password, 'password');
      if (Object.keys(errors).length) throw invalid(errors);
      if ((await mfaOf(app.ctx.db, request.user.id))?.attiva) throw invalid({ codice: [ALREADY_ON] }, ALREADY_ON);
      reply.header('cache-control', 'no-store');
      return startEnrolment(app.ctx.db, request.user.id, request.user.email);
    });

    scoped.post('/api/account/mfa/conferma', {
      schema: {
        body: { type: 'object', properties: { codice: { type: 'string', maxLength: 40 } } },
        response: { 200: { type: 'object', required: ['codici_recupero'], properties: { message: { type: 'string' }, codici_recupero: { type: 'array', items: { type: 'string' } } } } },
      },
    }, async (request, reply) => {
      const { db } = app.ctx;
      const { codice } = (request.body ?? {}) as { codice?: string };
      const mfa = await mfaOf(db, request.user.id);
      if (!mfa) throw invalid({ codice: ['Avvia prima l\'attivazione della verifica in due passaggi.'] });
      if (mfa.attiva) throw invalid({ codice: [ALREADY_ON] }, ALREADY_ON);
      const errors = await ownCodeProblem(request, codice, false);
      if (Object.keys(errors).length) throw invalid(errors, CODE_REFUSED);
      const codes = await db.transaction().execute(async (trx) => {
        const made = await confirmEnrolment(trx, request.user.id);
        await registraAccesso(trx, USERS_RESOURCE, 'mfa_attivata', request.user);
        return made;
      });
      // The notification frees the session on every instance at commit; this one need not wait for it.
      app.ctx.cache.forgetUser(request.user.id);
      reply.header('cache-control', 'no-store');
      return { message: 'Verifica in due passaggi attivata. Conserva i codici di recupero: non saranno più mostrati.', codici_recupero: codes };
    });

    scoped.delete('/api/account/mfa', {
      schema: { body: { type: ['object', 'null'], properties: { password: { type: 'string', maxLength: 200 }, codice: { type: 'string', maxLength: 40 } } } },
    }, async (request) => {
      const { db } = app.ctx;
      const { password, codice } = (request.body ?? {}) as { password?: string; codice?: string };
      if (!(await mfaOf(db, request.user.id))?.attiva) throw invalid({ codice: ['La verifica in due passaggi non è attiva.'] });
      // Off only where the role allows it (or a super_admin exempted the user).
      if (await rolesRequireMfa(db, request.user.roles) && !(await mfaExemptionOf(db, request.user.id))) {
        throw invalid({ codice: [MFA_KEPT] }, MFA_KEPT);
      }
      const errors = await ownPasswordProblem(request, password, 'password');
      if (!Object.keys(errors).length) Object.assign(errors, await ownCodeProblem(request, codice, true));
      if (Object.keys(errors).length) throw invalid(errors);
      await db.transaction().execute(async (trx) => {
        await trx.deleteFrom('auth_mfa').where('user_id', '=', request.user.id).execute();
        await registraAccesso(trx, USERS_RESOURCE, 'mfa_disattivata', request.user);
      });
      return { message: 'Verifica in due passaggi disattivata.' };
    });

    // A user who lost their phone and codes: the administrator resets it; their sessions end, the next login is by password.
    scoped.delete('/api/utente/:id/mfa', {
      preHandler: requirePermission('super_admin'),
      schema: { params: { type: 'object', required: ['id'], properties: { id: { type: 'integer', minimum: 1, maximum: 2_147_483_647 } } } },
    }, async (request) => {
      const { db } = app.ctx;
      const { id } = request.params as { id: number };
      const target = await sql<{ id: number; name: string }>`SELECT id, name FROM ${sql.table(USERS_RESOURCE)} WHERE id = ${id}`.execute(db);
      if (!target.rows[0]) throw notFound('Utente', false);
      const removed = await db.transaction().execute(async (trx) => {
        const gone = await trx.deleteFrom('auth_mfa').where('user_id', '=', id).returning('user_id').execute();
        if (!gone.length) return false;
        await revokeUserTokens(trx, id, id === request.user.id ? request.user.tokenId : undefined);
        await registraAccesso(trx, USERS_RESOURCE, 'mfa_reimpostata', target.rows[0]!);
        return true;
      });
      if (!removed) throw invalid({ id: ['La verifica in due passaggi di questo utente non è attiva.'] });
      return { message: 'Verifica in due passaggi reimpostata.' };
    });

    // Text of digits, not a coerced integer: '01', '1e0' or ' 1' name no user and are refused.
    const USER_ID = { type: 'object', required: ['id'], properties: { id: { type: 'string', pattern: '^[1-9][0-9]{0,8}$', description: 'id numerico' } } } as const;
    const EXEMPTION = {
      type: ['object', 'null'],
      properties: { motivo: { type: 'string' }, concessa_da: { type: 'string' }, concessa_il: { type: 'string' } },
    } as const;

    async function targetUser(id: number): Promise<{ id: number; name: string; ruoli: string[] }> {
      const rows = await sql<{ id: number; name: string; ruoli: string[] | null }>`SELECT id, name, ruoli FROM ${sql.table(USERS_RESOURCE)} WHERE id = ${id}`.execute(app.ctx.db);
      if (!rows.rows[0]) throw notFound('Utente', false);
      return { ...rows.rows[0], ruoli: rows.rows[0].ruoli ?? [] };
    }

    // What the super_admin sees of a user's verification: on or not, required by their roles, any exemption and why.
    scoped.get('/api/utente/:id/mfa', {
      preHandler: requirePermission('super_admin'),
      schema: {
        params: USER_ID,
        response: { 200: { type: 'object', required: ['attiva', 'richiesta', 'esenzione'], properties: { attiva: { type: 'boolean' }, richiesta: { type: 'boolean' }, esenzione: EXEMPTION } } },
      },
    }, async (request) => {
      const target = await targetUser(Number((request.params as { id: string }).id));
      const { db } = app.ctx;
      return {
        attiva: (await mfaOf(db, target.id))?.attiva === true,
        richiesta: await rolesRequireMfa(db, target.ruoli),
        esenzione: (await mfaExemptionOf(db, target.id)) ?? null,
      };
    });

    // An exemption from the role's required verification is a decision of a super_admin, with its reason, recorded.
    scoped.put('/api/utente/:id/mfa/esenzione', {
      preHandler: requirePermission('super_admin'),
      schema: { params: USER_ID, body: { type: ['object', 'null'], properties: { motivo: { type: 'string', maxLength: 500 } } } },
    }, async (request) => {
      const target = await targetUser(Number((request.params as { id: string }).id));
      const motivo = ((request.body ?? {}) as { motivo?: string }).motivo?.trim() ?? '';
      if (motivo.length < 5) throw invalid({ motivo: ["Indica il motivo dell'esenzione (almeno 5 caratteri)."] });
      await app.ctx.db.transaction().execute(async (trx) => {
        await exemptFromMfa(trx, target.id, motivo, request.user.name);
        await registraAccesso(trx, USERS_RESOURCE, 'mfa_esenzione_concessa', target);
      });
      app.ctx.cache.forgetUser(target.id);
      return { message: 'Esenzione dalla verifica in due passaggi registrata.' };
    });

    scoped.delete('/api/utente/:id/mfa/esenzione', {
      preHandler: requirePermission('super_admin'),
      schema: { params: USER_ID },
    }, async (request) => {
      const target = await targetUser(Number((request.params as { id: string }).id));
      const removed = await app.ctx.db.transaction().execute(async (trx) => {
        const gone = await trx.deleteFrom('auth_mfa_esenzione').where('user_id', '=', target.id).returning('user_id').execute();
        if (gone.length) await registraAccesso(trx, USERS_RESOURCE, 'mfa_esenzione_revocata', target);
        return gone.length > 0;
      });
      app.ctx.cache.forgetUser(target.id);
      if (!removed) throw invalid({ id: ['Questo utente non ha un\'esenzione dalla verifica in due passaggi.'] });
      return { message: 'Esenzione revocata: al prossimo accesso dovrà attivare la verifica in due passaggi.' };
    });

    const SESSION = {
      type: 'object',
      required: ['id', 'creata', 'ultimo_uso', 'corrente'],
      properties: {
        id: { type: 'integer' },
        creata: { type: 'string' },
        ultimo_uso: { type: 'string' },
        scade: { type: 'string' },
        dispositivo: { type: ['string', 'null'] },
        indirizzo: { type: ['string', 'null'] },
        corrente: { type: 'boolean' },
      },
    } as const;

    // 'Sessioni attive': the user's own live sessions, the current one first, then by last use.
    scoped.get('/api/account/sessioni', {
      schema: { response: { 200: { type: 'object', required: ['data'], properties: { data: { type: 'array', items: SESSION } } } } },
    }, async (request) => {
      const idleMinutes = app.ctx.config.SESSION_IDLE_MINUTES;
      const rows = await sql<{ id: number; creata: string; ultimo_uso: string; scade: string; dispositivo: string | null; indirizzo: string | null }>`
        SELECT id::int, to_json(created_at) #>> '{}' AS creata, to_json(used_at) #>> '{}' AS ultimo_uso, to_json(expires_at) #>> '{}' AS scade,
          user_agent AS dispositivo, address AS indirizzo
        FROM auth_token
        WHERE user_id = ${request.user.id} AND revoked_at IS NULL AND expires_at > now()
          AND used_at > now() - make_interval(secs => ${idleMinutes * 60})
        ORDER BY id = ${request.user.tokenId} DESC, used_at DESC, id DESC`.execute(app.ctx.db);
      return { data: rows.rows.map((r) => ({ ...r, corrente: r.id === request.user.tokenId })) };
    });

    /** Ends the user's own sessions chosen by `which` (one, or every other), recorded, and forgotten here at once. */
    async function endSessions(request: FastifyRequest, which: { id: number } | { others: true }): Promise<number> {
      return app.ctx.db.transaction().execute(async (trx) => {
        let query = trx.updateTable('auth_token').set({ revoked_at: sql`now()` })
          .where('user_id', '=', request.user.id).where('revoked_at', 'is', null);
        query = 'id' in which ? query.where('id', '=', which.id) : query.where('id', '!=', request.user.tokenId);
        const ended = await query.returning(['token_hash']).execute();
        if (ended.length) await registraAccesso(trx, USERS_RESOURCE, 'id' in which ? 'sessione_terminata' : 'sessioni_terminate', request.user);
        // Other instances learn it by notification at commit; this one forgets at once.
        for (const row of ended) app.ctx.cache.forgetSession(row.token_hash);
        return ended.length;
      });
    }

    const ENDED = { 200: { type: 'object', required: ['message', 'terminate'], properties: { message: { type: 'string' }, terminate: { type: 'integer' } } } } as const;

    scoped.delete('/api/account/sessioni/:id', {
      schema: {
        params: { type: 'object', required: ['id'], properties: { id: { type: 'integer', minimum: 1, maximum: 9_007_199_254_740_991 } } },
        response: ENDED,
      },
    }, async (request) => {
      const { id } = request.params as { id: number };
      const terminate = await endSessions(request, { id });
      if (!terminate) throw notFound('Sessione');
      return { message: 'Sessione terminata.', terminate };
    });

    scoped.delete('/api/account/sessioni', { schema: { response: ENDED } }, async (request) => {
      const terminate = await endSessions(request, { others: true });
      return { message: terminate === 1 ? 'Terminata 1 altra sessione.' : `Terminate ${terminate} altre sessioni.`, terminate };
    });

    scoped.put('/api/account', {
      schema: {
        body: {
          type: 'object',
          properties: {
            name: { type: 'string', maxLength: 100 },
            password_attuale: { type: 'string', maxLength: 200 },
            password: { type: 'string', maxLength: 200 },
          },
        },
      },
    }, async (request) => {
      const { db } = app.ctx;
      const body = (request.body ?? {}) as { name?: string; password_attuale?: string; password?: string };
      const errors: Record<string, string[]> = {};
      const changes: Record<string, unknown> = {};
      if (body.name !== undefined) {
        if (body.name.trim().length < 2) errors.name = ['Campo Obbligatorio.'];
        else changes.name = body.name.trim();
      }
      if (body.password) {
        const stored = await sql<{ password: string | null }>`SELECT password FROM ${sql.table(USERS_RESOURCE)} WHERE id = ${request.user.id}`.execute(db);
        if (!body.password_attuale) errors.password_attuale = ['Campo Obbligatorio.'];
        else {
          // The same guess as a login's, counted and slowed down on the same account: a stolen session must not
          // become a free password oracle.
          const keys = throttleKeys(request.user.email, request.ip);
          await takeTurn(keys, 'password_attuale');
          if (await verifyPassword(stored.rows[0]?.password, body.password_attuale)) await clearFailures(db, keys);
          else {
            await recordFailure(db, keys);
            errors.password_attuale = ['La password attuale non è corretta.'];
          }
        }
        const problem = passwordProblem(body.password);
        if (problem) errors.password = [problem];
        // Hashed by the repository, as the user resource declares it secret.
        else changes.password = body.password;
      }
      if (Object.keys(errors).length) throw invalid(errors);
      if (Object.keys(changes).length) {
        const users = new ResourceRepository(app.ctx.definitions.resources.get(USERS_RESOURCE)!, app.ctx);
        await db.transaction().execute(async (trx) => {
          // The user's own record, written like every other: validated with its definition, version bumped.
          await users.writeOnBehalf(trx, request.user, await users.lockRow(trx, request.user.id), changes);
          // A new password ends every other session of this user.
          if (changes.password) {
            await revokeUserTokens(trx, request.user.id, request.user.tokenId);
            await registraAccesso(trx, USERS_RESOURCE, 'cambio_password', request.user);
          }
        });
      }
      const user = { ...request.user, name: (changes.name as string | undefined) ?? request.user.name };
      return { message: 'Account aggiornato.', data: sessionBody(app, user) };
    });
  });
}, { name: 'auth' });
