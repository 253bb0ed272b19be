// The user a cached session answers: one object shared by the session's requests, rebuilt when the role table changes.
import { describe, expect, it } from 'vitest';
import { InstanceCache } from '../../src/server/cache.ts';
import { cachedUser, tokenHash } from '../../src/server/auth/service.ts';

function listeningCache(): InstanceCache {
  const cache = new InstanceCache();
  cache.listening = true;
  return cache;
}

const row = { id: 7, email: 'a@b.it', name: 'Anna Bianchi', collaboratore_id: null, tokenId: 3, roles: ['staff'], expiresAt: Date.now() + 3_600_000, usedAt: Date.now() };

describe('cachedUser', () => {
  it('answers the same frozen user for every request of a cached session, without the expiry', () => {
    const cache = listeningCache();
    cache.rememberSession(tokenHash('tok'), row, cache.generation);
    cache.rememberRoles(new Map([['staff', ['show_clienti', 'gestione_clienti']]]), cache.generation);
    const first = cachedUser('tok', cache)!;
    expect(first).toMatchObject({ id: 7, roles: ['staff'], permissions: ['gestione_clienti', 'show_clienti'] });
    expect(first).not.toHaveProperty('expiresAt');
    expect(cachedUser('tok', cache)).toBe(first);
    expect(Object.isFrozen(first)).toBe(true);
    expect(() => { (first as { name: string }).name = 'altro'; }).toThrow(TypeError);
  });

  it('builds the user again with the new permissions once the role table changed', () => {
    const cache = listeningCache();
    cache.rememberSession(tokenHash('tok'), row, cache.generation);
    cache.rememberRoles(new Map([['staff', ['show_clienti']]]), cache.generation);
    const before = cachedUser('tok', cache)!;
    cache.invalidate('roles');
    expect(cachedUser('tok', cache)).toBeUndefined();
    cache.rememberRoles(new Map([['staff', ['show_clienti', 'show_polizze']]]), cache.generation);
    const after = cachedUser('tok', cache)!;
    expect(after).not.toBe(before);
    expect(after.permissions).toEqual(['show_clienti', 'show_polizze']);
  });

  it('answers nothing for a session the cache does not hold, or without the listener', () => {
    const cache = listeningCache();
    cache.rememberRoles(new Map([['staff', ['show_clienti']]]), cache.generation);
    expect(cachedUser('other', cache)).toBeUndefined();
    cache.rememberSession(tokenHash('tok'), row, cache.generation);
    cache.listening = false;
    expect(cachedUser('tok', cache)).toBeUndefined();
  });
});
