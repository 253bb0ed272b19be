// Request logging without secrets: token-like and search values in query strings are redacted.
import type { FastifyRequest } from 'fastify';

// Names whose values identify a session or a person, or tell what someone searched for.
const REDACTED = /token|password|secret|key|code|uuid|sig|search|^q$|filter\[/i;

/** The URL with the values of sensitive query parameters replaced by [REDACTED]. */
export function redactUrl(url: string): string {
  const at = url.indexOf('?');
  if (at < 0) return url;
  const parts = url.slice(at + 1).split('&').map((pair) => {
    const eq = pair.indexOf('=');
    const rawName = eq < 0 ? pair : pair.slice(0, eq);
    let name = rawName;
    try {
      name = decodeURIComponent(rawName.replace(/\+/g, ' '));
    } catch {
      // undecodable: judged as written
    }
    return eq >= 0 && REDACTED.test(name) ? `${rawName}=[REDACTED]` : pair;
  });
  return `${url.slice(0, at)}?${parts.join('&')}`;
}

export const logSerializers = {
  req(request: FastifyRequest) {
    return { method: request.method, url: redactUrl(request.url), remoteAddress: request.ip };
  },
};
