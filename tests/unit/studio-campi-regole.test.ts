// The studio's field rules as the Analyst guide writes them: format, pattern with its Italian message, capitals, read
// permission, a reference to another resource; kept on an edit that does not touch them; the lint accepts them.
import { describe, expect, it } from 'vitest';
import path from 'node:path';
import { readDefinitionFiles } from '../../src/server/definitions.ts';
import { lintFiles } from '../../src/server/definizioni/piano.ts';
import { domains } from '../../src/server/domains/index.ts';
import { campiOf, campoSchema, fileDelCampo, FORMATI } from '../../src/shared/definitions/studio/campi.ts';

const files = await readDefinitionFiles(path.resolve('schemas')) as Record<string, any>;
const entity = 'schemas/cliente/entity.schema.json';

describe('studio field rules', () => {
  it('a text with format, pattern and message, capitals and a read permission is written with those keywords', async () => {
    const changed = fileDelCampo(files, 'cliente', {
      nome: 'codice_interno', titolo: 'Codice interno', tipo: 'testo', obbligatorio: false, formato: undefined, modello: '^[A-Z]{2}[0-9]{3}$',
      messaggio_modello: 'Due lettere e tre cifre, es. AB123', maiuscolo: true, permesso_lettura: 'show_provvigionale',
    });
    expect(changed[entity]!.properties.codice_interno).toEqual({
      type: 'string', title: 'Codice interno', pattern: '^[A-Z]{2}[0-9]{3}$', 'x-messages': { pattern: 'Due lettere e tre cifre, es. AB123' },
      'x-uppercase': true, 'x-read-permission': 'show_provvigionale',
    });
    await expect(lintFiles({ ...files, ...changed }, domains)).resolves.toBeDefined();
    const read = campiOf(changed[entity]!).find((c) => c.nome === 'codice_interno')!;
    expect(read).toMatchObject({ modello: '^[A-Z]{2}[0-9]{3}$', messaggio_modello: 'Due lettere e tre cifre, es. AB123', maiuscolo: true, permesso_lettura: 'show_provvigionale' });
  });

  it('a format is one the validator implements, and an edit of another setting keeps it', () => {
    expect(FORMATI).toEqual(expect.arrayContaining(['email', 'codice-fiscale', 'iban', 'telefono', 'cap']));
    const withFormat = fileDelCampo(files, 'cliente', { nome: 'iban_rimborsi', titolo: 'IBAN rimborsi', tipo: 'testo', obbligatorio: false, formato: 'iban' });
    const next = { ...files, ...withFormat };
    const campo = campiOf(next[entity]).find((c) => c.nome === 'iban_rimborsi')!;
    expect(campo.formato).toBe('iban');
    const renamedTitle = fileDelCampo(next, 'cliente', { ...campo, titolo: 'IBAN per i rimborsi' }, 'iban_rimborsi');
    expect(renamedTitle[entity]!.properties.iban_rimborsi).toEqual({ type: 'string', title: 'IBAN per i rimborsi', format: 'iban' });
  });

  it('a reference names its resource and is an integer; the form offers the resources and permissions given', async () => {
    const changed = fileDelCampo(files, 'cliente', { nome: 'segnalatore_id', titolo: 'Segnalatore', tipo: 'riferimento', obbligatorio: false, riferimento: 'collaboratore' });
    expect(changed[entity]!.properties.segnalatore_id).toEqual({ type: 'integer', 'x-ref': 'collaboratore', 'x-widget': 'reference', title: 'Segnalatore' });
    expect(campiOf(changed[entity]!).find((c) => c.nome === 'segnalatore_id')).toMatchObject({ tipo: 'riferimento', riferimento: 'collaboratore' });
    await expect(lintFiles({ ...files, ...changed }, domains)).resolves.toBeDefined();
    const schema = campoSchema([{ const: 'collaboratore', title: 'Collaboratori' }], [{ const: 'show_provvigionale', title: 'show_provvigionale' }]);
    expect(schema.properties.riferimento.oneOf).toEqual([{ const: 'collaboratore', title: 'Collaboratori' }]);
    expect(schema.properties.formato.oneOf.map((o: { const: string }) => o.const)).toEqual(FORMATI);
  });
});
