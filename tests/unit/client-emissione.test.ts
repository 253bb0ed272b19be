// The issue panel's pure rules on the real machine: which dialog buttons each role sees per status, paths filled from the record.
import path from 'node:path';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { decorrenzaProposta, dialogEvents } from '../../src/client/pages/quotazione/EmissionePanel.tsx';
import { routePath } from '../../src/client/api/dataProvider.ts';
import { actionEvents, type AvailableEvent } from '../../src/client/pages/quotazione/useRecordWorkflow.ts';
import { Workflow, type WorkflowDefinition } from '../../src/shared/workflow/machine.ts';
import { QUOTAZIONE_GUARDS } from '../../src/shared/domains/quotazione/guards.ts';

const root = path.resolve(import.meta.dirname, '..', '..');
const workflow = new Workflow(JSON.parse(readFileSync(path.join(root, 'workflows', 'quotazione_auto_storica.json'), 'utf8')) as WorkflowDefinition, QUOTAZIONE_GUARDS);
const ruoli = JSON.parse(readFileSync(path.join(root, 'schemas', '_reference', 'ruoli.json'), 'utf8')) as { roles: Array<{ name: string; permissions: string[] }> };
const user = (role: string) => ({ permissions: ruoli.roles.find((r) => r.name === role)!.permissions, roles: [role], kind: 'staff' as const });
const labels = (status: number, role: string, record: Record<string, unknown> = {}) =>
  dialogEvents(workflow.available(status, user(role), record) as AvailableEvent[]).map((e) => e.meta.label);

describe('issue panel buttons', () => {
  it('offers issuing in 7, 8 and 11 to who may issue, nothing to a collaborator', () => {
    for (const status of [7, 8, 11]) {
      expect(labels(status, 'staff')).toEqual(['Salva Emissione', 'Preview Emissione', 'Emetti']);
      expect(labels(status, 'collaboratore')).toEqual([]);
    }
    expect(labels(6, 'staff')).toEqual([]);
  });

  it('after issue: renewal once, reversal and Koala for the super_admin only, never in 11', () => {
    expect(labels(9, 'super_admin')).toEqual(['Salva Emissione', 'Rinnova Polizza', 'Storna Polizza', 'Reinvia dati a Koala', 'Rigenera documenti']);
    expect(labels(10, 'staff')).toEqual(['Salva Emissione', 'Rinnova Polizza', 'Rigenera documenti']);
    expect(labels(10, 'collaboratore')).toEqual(['Rinnova Polizza']);
    expect(labels(10, 'super_admin', { rinnovo_id: 5 })).not.toContain('Rinnova Polizza');
    expect(labels(11, 'super_admin')).not.toContain('Storna Polizza');
  });

  it('never shows the insurer-answer events, and the generic action bar does not repeat the dialogs', () => {
    for (const status of workflow.statuses.map((s) => s.id)) {
      const events = workflow.available(status, user('super_admin'), {}) as AvailableEvent[];
      expect(dialogEvents(events).map((e) => e.type)).not.toContain('ERRORE_EMISSIONE');
      expect(dialogEvents(events).map((e) => e.type)).not.toContain('AVVISO_EMISSIONE');
      const bar = new Set(actionEvents(events).map((e) => e.type));
      expect(dialogEvents(events).filter((e) => bar.has(e.type))).toEqual([]);
    }
  });

  it('fills the route from the record and proposes the later of decorrenza and the payment receipt day', () => {
    expect(routePath('/api/storna_emissione/{id}/{verti_policy_number}', { id: 4, verti_policy_number: 'AS 1/2' })).toBe('/api/storna_emissione/4/AS%201%2F2');
    expect(decorrenzaProposta({ data_incasso: '2026-11-20', decorrenza: '2026-12-01' })).toBe('2026-12-01');
    expect(decorrenzaProposta({ data_incasso: '2026-11-20', decorrenza: '2026-11-01' })).toBe('2026-11-20');
    expect(decorrenzaProposta({})).toBe('');
  });
});
