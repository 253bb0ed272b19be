// Domains as plugins (issue 9): what a domain registers is checked against the definitions at start, held by the
// app instance, and a wrong registration stops the start naming the resource.
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadAll } from '../../src/server/bootstrap.ts';
import { buildApp } from '../../src/server/app.ts';
import { connect } from '../../src/server/db/connection.ts';
import { collectExtensions, defineDomain, type Domain } from '../../src/server/extensions.ts';
import { domains } from '../../src/server/domains/index.ts';
import { workflowGuards } from '../../src/shared/workflow/guards.ts';

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const { definitions } = await loadAll(path.join(ROOT, 'schemas'));
// Registration fails before the first query: a pool that is never used.
const unused = connect('postgres://nobody@127.0.0.1:1/none', 1);
afterAll(() => unused.close());

const nameOf = (domain: Domain) => (domain as unknown as Record<symbol, { name: string }>)[Symbol.for('plugin-meta')]!.name;
const start = (extra: Domain[]) => buildApp({ db: unused.db, definitions, domains: [...domains, ...extra] });

describe('domain registrations', () => {
  it('every domain is a named plugin and the list loads', async () => {
    expect(new Set(domains.map(nameOf)).size).toBe(domains.length);
    expect(domains.map(nameOf)).toContain('domain:quotazione');
    const extensions = await collectExtensions(definitions, domains);
    expect(extensions.hooksFor('quotazione').beforeWrite).toBeTypeOf('function');
    expect(extensions.actionNames()).toEqual(expect.arrayContaining(['inviaEmail', 'documentiEmissione', 'esitoDocumenti']));
    expect(extensions.viewOf('incasso')).toMatch(/FROM titolo/);
    expect(extensions.routePlugins().length).toBeGreaterThan(10);
    expect(extensions.publicRoutePlugins().length).toBe(2);
    expect(extensions.prepareSteps().map(([name]) => name)).toEqual(['reference data']);
  });

  it('hooks for a resource the definitions do not declare stop the start, naming it', async () => {
    const typo = defineDomain('typo', (app) => app.extensions.resourceHooks('quotazioni', {}));
    await expect(start([typo])).rejects.toThrow('hooks for resource "quotazioni": the definitions declare no such resource');
  });

  it('hooks registered twice for a resource stop the start, naming it', async () => {
    const again = defineDomain('again', (app) => app.extensions.resourceHooks('quotazione', {}));
    await expect(start([again])).rejects.toThrow('hooks for resource "quotazione" registered twice');
  });

  it('migrations, views, checks and actions are checked the same way', async () => {
    const cases: Array<[Domain, string]> = [
      [defineDomain('m', (app) => app.extensions.migration('clienti', ['SELECT 1'])), 'migration for resource "clienti": the definitions declare no such resource'],
      [defineDomain('m2', (app) => app.extensions.migration('quotazione', ['SELECT 1'])), 'migration for resource "quotazione" registered twice'],
      [defineDomain('v', (app) => app.extensions.view('cliente', 'SELECT 1')), 'view for resource "cliente": its resource.json does not declare "view": true'],
      [defineDomain('c', (app) => app.extensions.recordCheck('x-codice-fiscale', async () => ({}))), 'record check "x-codice-fiscale" registered twice'],
      [defineDomain('c2', (app) => app.extensions.recordCheck('x-codice-fiscal', async () => ({}))), 'record check "x-codice-fiscal": no resource\'s entity schema declares it'],
      [defineDomain('a', (app) => app.extensions.workflowAction('esitoDocumenti', async () => {})), 'workflow action "esitoDocumenti" registered twice'],
    ];
    for (const [domain, message] of cases) await expect(collectExtensions(definitions, [...domains, domain])).rejects.toThrow(message);
  });

  it('a domain whose dependency is not loaded before it stops the start', async () => {
    const orphan = defineDomain('orfano', () => {}, ['inesistente']);
    await expect(collectExtensions(definitions, [orphan])).rejects.toThrow(/domain:inesistente/);
  });

  it('a workflow action the machine names but no domain registers stops the start', async () => {
    // Without the quotation's domain and those that depend on it.
    const withoutQuotazione = domains.filter((d) => !['domain:quotazione', 'domain:quotazioni_rca', 'domain:polizza_auto_storica'].includes(nameOf(d)));
    expect(withoutQuotazione.length).toBe(domains.length - 3);
    await expect(collectExtensions(definitions, withoutQuotazione)).rejects.toThrow(/l'azione «documentiEmissione» non è implementata/);
    await expect(collectExtensions(definitions, withoutQuotazione)).rejects.toThrow(/la condizione «derogaNecessaria» non è implementata/);
  });

  it('the quotation machine\'s guards come from its domain, not from the generic guard map', async () => {
    expect(Object.keys(workflowGuards)).not.toContain('derogaNecessaria');
    const extensions = await collectExtensions(definitions, domains);
    expect(Object.keys(extensions.guardsFor('quotazione_auto_storica'))).toEqual(expect.arrayContaining(['derogaNecessaria', 'calcolata', 'polizzaEmessa']));
    const typo = defineDomain('g', (app) => app.extensions.workflowGuards('quotazione_auto_storico', {}));
    await expect(collectExtensions(definitions, [...domains, typo])).rejects.toThrow('guards for workflow "quotazione_auto_storico": no workflows/quotazione_auto_storico.json');
  });

  it('two apps in one process keep their own registrations', async () => {
    const beforeDelete = async () => {};
    const a = await collectExtensions(definitions, domains);
    // email_outbox: a resource no domain hooks into.
    const b = await collectExtensions(definitions, [...domains, defineDomain('extra', (app) => app.extensions.resourceHooks('email_outbox', { beforeDelete }))]);
    expect(b.hooksFor('email_outbox').beforeDelete).toBe(beforeDelete);
    expect(a.hooksFor('email_outbox')).toEqual({});
  });
});
