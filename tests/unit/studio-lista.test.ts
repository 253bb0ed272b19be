// The studio's list editor writes list.json as the Analyst guide would: columns, sort, and the list's saved filters.
import { describe, expect, it } from 'vitest';
import path from 'node:path';
import { readDefinitionFiles } from '../../src/server/definitions.ts';
import { lintFiles } from '../../src/server/definizioni/piano.ts';
import { domains } from '../../src/server/domains/index.ts';
import { filtriDellaLista, listaDati, listaFile } from '../../src/shared/definitions/studio/editori.ts';

const files = await readDefinitionFiles(path.resolve('schemas')) as Record<string, any>;
const list = 'schemas/compagnia/list.json';

describe('studio list editor', () => {
  it('offers the filters the list has: its filtered columns, then its other filters', () => {
    expect(filtriDellaLista(files[list]).map((f) => f.const)).toEqual(['id', 'ragioneSociale', 'tipoCompagnia', 'citta', 'piva', 'email', 'isBloccata', 'attivo']);
  });

  it('a saved filter for everyone round-trips to savedFilters; the lint accepts it; none written leaves no key', async () => {
    const dati = listaDati(files[list]);
    expect(dati.filtri_salvati).toEqual([]);
    const written = listaFile(files[list], { ...dati, filtri_salvati: [{ nome: 'Bloccate a Roma', ordinamento: '-ragioneSociale', filtri: [{ filtro: 'citta', valore: 'Roma' }, { filtro: 'isBloccata', valore: 'true' }] }] });
    expect(written.savedFilters).toEqual([{ nome: 'Bloccate a Roma', sort: '-ragioneSociale', filters: { citta: 'Roma', isBloccata: 'true' } }]);
    expect(listaDati(written).filtri_salvati).toEqual([{ nome: 'Bloccate a Roma', ricerca: undefined, ordinamento: '-ragioneSociale', filtri: [{ filtro: 'citta', valore: 'Roma' }, { filtro: 'isBloccata', valore: 'true' }] }]);
    await expect(lintFiles({ ...files, [list]: written }, domains)).resolves.toBeDefined();
    expect(listaFile(written, { ...listaDati(written), filtri_salvati: [] })).not.toHaveProperty('savedFilters');
  });

  it('the lint refuses a saved filter on something the list does not filter by', async () => {
    const written = { ...files[list], savedFilters: [{ nome: 'Per telefono', filters: { tel: '06' } }] };
    await expect(lintFiles({ ...files, [list]: written }, domains)).rejects.toThrow(/"tel" non è un filtro di questa lista/);
  });
});
