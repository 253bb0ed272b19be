// Export of live definitions to git: a changed file is edited value by value, its own layout kept, so the diff is the change.
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { editedText } from '../../src/server/definizioni/export.ts';

const listText = readFileSync('schemas/cliente/list.json', 'utf8');
const list = JSON.parse(listText);

function changedLines(before: string, after: string): string[] {
  const old = new Set(before.split('\n'));
  return after.split('\n').filter((line) => !old.has(line));
}

describe('editedText', () => {
  it('adds a column as one new line and keeps every other line as it was written', () => {
    const next = structuredClone(list);
    next.columns.splice(3, 0, { field: 'pec', headerName: 'PEC', sortable: true });
    const text = editedText(listText, list, next);
    expect(JSON.parse(text)).toEqual(next);
    expect(changedLines(listText, text).join('\n')).toMatch(/"field": "pec"/);
    expect(listText.split('\n').filter((line) => !text.includes(line))).toEqual([]);
  });

  it('changes one value in place, removes a key, and falls back to the plain layout for a whole new document', () => {
    const next = structuredClone(list);
    next.perPage = 25;
    delete next.emptyText;
    const text = editedText(listText, list, next);
    expect(JSON.parse(text)).toEqual(next);
    expect(changedLines(listText, text)).toEqual(['  "perPage": 25,', '  "actions": ["add", "edit", "delete"]']);
    expect(editedText(listText, list, [1, 2])).toBe('[\n  1,\n  2\n]\n');
  });
});
