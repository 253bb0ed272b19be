// A real OpenID provider (oidc-provider) on 127.0.0.1 for the single sign-on tests: any login name is an account whose
// e-mail is that name (verified unless it starts with 'nonverificato'); consent is granted without asking.
import { createServer, type Server } from 'node:http';
import Provider from 'oidc-provider';

export interface TestProvider {
  issuer: string;
  clientId: string;
  clientSecret: string;
  close(): Promise<void>;
}

/** A provider listening already (its issuer known), whose client's redirect addresses are given later by `attach`. */
export async function listenProvider(): Promise<TestProvider & { attach(redirectUris: string[]): void }> {
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  const clientId = 'back-office';
  const clientSecret = 'segreto-del-client-di-prova';
  return {
    issuer, clientId, clientSecret,
    attach(redirectUris) {
      const provider = new Provider(issuer, {
        clients: [{ client_id: clientId, client_secret: clientSecret, redirect_uris: redirectUris, grant_types: ['authorization_code'], response_types: ['code'] }],
        pkce: { required: () => true },
        claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
        findAccount: (_ctx, id) => ({
          accountId: id,
          claims: () => ({ sub: id, email: id, email_verified: !id.startsWith('nonverificato'), name: id }),
        }),
        // First-party client: the grant exists already, so no consent screen.
        loadExistingGrant: async (ctx) => {
          const grant = new ctx.oidc.provider.Grant({ clientId: ctx.oidc.client!.clientId, accountId: ctx.oidc.session!.accountId! });
          grant.addOIDCScope('openid email profile');
          await grant.save();
          return grant;
        },
        cookies: { keys: ['chiave-dei-cookie-di-prova'] },
      });
      server.on('request', provider.callback());
    },
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}

export async function startProvider(redirectUris: string[]): Promise<TestProvider> {
  const provider = await listenProvider();
  provider.attach(redirectUris);
  return provider;
}

/**
 * Walks the provider's pages as a browser would (cookies kept), logging in as `login`, until it redirects to the
 * client's `redirectPrefix`: answers that address.
 */
export async function loginAtProvider(authorizationUrl: string, login: string, redirectPrefix: string): Promise<string> {
  const cookies = new Map<string, string>();
  const header = () => [...cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  let url = authorizationUrl;
  let init: RequestInit = {};
  for (let i = 0; i < 20; i++) {
    if (url.startsWith(redirectPrefix)) return url;
    const res = await fetch(url, { ...init, redirect: 'manual', headers: { ...(init.headers as Record<string, string> | undefined), cookie: header() } });
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(';');
      const at = pair!.indexOf('=');
      cookies.set(pair!.slice(0, at), pair!.slice(at + 1));
    }
    const location = res.headers.get('location');
    if (location) {
      url = new URL(location, url).href;
      init = {};
      continue;
    }
    const html = await res.text();
    const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1];
    if (!action) throw new Error(`no form at ${url}: ${res.status} ${html.slice(0, 300)}`);
    url = new URL(action, url).href;
    init = { method: 'POST', body: new URLSearchParams({ prompt: 'login', login, password: 'qualsiasi' }).toString(), headers: { 'content-type': 'application/x-www-form-urlencoded' } };
  }
  throw new Error('the provider never redirected back');
}
