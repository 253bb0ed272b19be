// /api/openapi.json is generated from the registered routes: every route Fastify knows is in the document.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, createTestApp, type TestApp } from './helpers.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t?.close());

describe('OpenAPI document', () => {
  it('lists every registered route with its parameters, and registers entity schemas once', async () => {
    const res = await t.call('GET', '/api/openapi.json');
    expect(res.status).toBe(200);
    const doc = res.body;
    expect(doc.openapi).toBe('3.1.0');
    const routes = t.app.registeredRoutes.filter((r) => !r.hidden && r.method !== 'HEAD' && r.url !== '*' && !r.url.endsWith('*'));
    expect(routes.length).toBeGreaterThan(50);
    const missing: string[] = [];
    for (const route of routes) {
      const path = route.url.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
      const operation = doc.paths[path]?.[route.method.toLowerCase()];
      if (!operation) {
        missing.push(`${route.method} ${route.url}`);
        continue;
      }
      // Every operation states its answers and, where the path has parameters, declares them.
      expect(Object.keys(operation.responses ?? {}).length, `${route.method} ${route.url}`).toBeGreaterThan(0);
      for (const name of [...route.url.matchAll(/:([A-Za-z0-9_]+)/g)].map((m) => m[1])) {
        expect(operation.parameters?.some((p: { in: string; name: string }) => p.in === 'path' && p.name === name), `${route.method} ${route.url} ${name}`).toBe(true);
      }
    }
    expect(missing).toEqual([]);
    // Entity schemas are components referenced by the operations, not copies.
    expect(doc.components.schemas.cliente.properties.cf.format).toBe('codice-fiscale');
    expect(doc.components.schemas.cliente_input.properties).not.toHaveProperty('id');
    expect(JSON.stringify(doc.paths['/api/cliente'].post.requestBody)).toContain('#/components/schemas/cliente_input');
    expect(doc.paths['/api/cliente/{id}'].put.responses).toHaveProperty('409');
    expect(doc.paths['/api/quotazioni/calcolo'].post.requestBody).toBeDefined();
  });

  it('documents exactly the registered operations, no more and no fewer', async () => {
    // The document is built from the same routes list the test walks; a route registered by a later issue is covered alike.
    const doc = (await t.call('GET', '/api/openapi.json')).body;
    const documented = Object.values(doc.paths as Record<string, Record<string, unknown>>).reduce((n, ops) => n + Object.keys(ops).length, 0);
    const registered = t.app.registeredRoutes.filter((r) => !r.hidden && r.method !== 'HEAD' && !r.url.endsWith('*')).length;
    expect(documented).toBe(registered);
  });

  it('input schemas list what a create needs, never nullable, and the server agrees', async () => {
    const doc = (await t.call('GET', '/api/openapi.json')).body;
    const schemas = doc.components.schemas as Record<string, { required?: string[]; allOf?: Array<{ anyOf: Array<{ required: string[] }> }>; properties: Record<string, { anyOf?: Array<{ type?: string }> }> }>;
    const nullable = (prop: { anyOf?: Array<{ type?: string }> }) => Boolean(prop.anyOf?.some((b) => b.type === 'null'));
    // cliente: tipo, sesso and nome are required at creation and cannot be null; an optional field can (null erases).
    expect(schemas.cliente_input!.required).toEqual(expect.arrayContaining(['tipo', 'sesso', 'nome']));
    for (const name of ['tipo', 'sesso', 'nome']) expect(nullable(schemas.cliente_input!.properties[name]!), name).toBe(false);
    expect(nullable(schemas.cliente_input!.properties.cognome!)).toBe(true);
    // A field with a default is not needed (quotazione.persona), nor is a secret left out or the row scope's field.
    expect(schemas.quotazione_input!.required ?? []).not.toContain('persona');
    // PUT merges into the stored record: nothing required, but a required field still cannot be erased.
    expect(doc.paths['/api/cliente/{id}'].put.requestBody.content['application/json'].schema.$ref).toBe('#/components/schemas/cliente_update');
    expect(schemas.cliente_update!.required).toBeUndefined();
    expect(nullable(schemas.cliente_update!.properties.nome!)).toBe(false);

    // Every field a create lists is one the server refuses to do without: POST {} names each of them.
    const admin = await t.login(ADMIN.email, ADMIN.password);
    let checked = 0;
    for (const [path, operations] of Object.entries(doc.paths as Record<string, Record<string, { requestBody?: { content: Record<string, { schema: { $ref?: string } }> } }>>)) {
      const ref = operations.post?.requestBody?.content['application/json']?.schema.$ref;
      if (!ref?.endsWith('_input')) continue;
      const input = schemas[ref.replace('#/components/schemas/', '')]!;
      const listed = [...(input.required ?? []), ...(input.allOf ?? []).map((a) => a.anyOf[0]!.required[0]!)];
      if (!listed.length) continue;
      const res = await t.call('POST', path, { token: admin, body: {} });
      expect(res.status, path).toBe(422);
      for (const name of listed) expect(Object.keys(res.body.errors), `${path} ${name}`).toContain(name);
      checked++;
    }
    expect(checked).toBeGreaterThan(5);
  });
});
