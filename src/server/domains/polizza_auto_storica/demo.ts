// Demo quotations in every status of the machine (spec 001 §4), moved there by its events; issued ones through the insurer's sandbox.
import { sql } from 'kysely';
import { CONTRATTO_EMESSO, type ContrattoEmesso } from '../../extensions.ts';
import type { Database } from '../../db/connection.ts';
import type { AuthUser } from '../../auth/user.ts';
import type { Definitions } from '../../../shared/definitions/types.ts';
import { Workflow, type WorkflowDefinition } from '../../../shared/workflow/machine.ts';
import { ResourceRepository, type RepositoryDeps } from '../../resources/repository.ts';
import { calcola } from '../../adapters/auto-storiche/calcolo.ts';
import { emissioneAutoStoriche } from '../../adapters/auto-storiche/emissione.ts';
import { koalaBroker } from '../../adapters/koala/index.ts';
import { registriAdapter } from '../../adapters/registri/index.ts';
import { loadConfig } from '../../config.ts';
import { emetti, rinnova, storna, type Servizio } from './servizio.ts';
import { oggiIso } from '../../../shared/dates.ts';
import type { MediaStore } from '../../media/store.ts';
import { QUOTAZIONE_GUARDS } from '../../../shared/domains/quotazione/guards.ts';

const DOMINIO = '@stati.esempio.it';

interface Piano {
  nome: string;
  cognome: string;
  targa: string;
  /** Status ids to pass through with CAMBIO_STATO before the domain steps. */
  stato?: number;
  passi?: Array<'emetti' | 'firma' | 'rinnova' | 'storna'>;
}

// One quotation per status; the plates choose the sandbox insurer's answer (ERR… is refused).
const PIANI: Piano[] = [
  { nome: 'Aldo', cognome: 'Bozza', targa: 'DM100AA' },
  { nome: 'Bruna', cognome: 'Deroga', targa: 'DM102AA', stato: 2 },
  { nome: 'Carlo', cognome: 'Approvata', targa: 'DM103AA', stato: 3 },
  { nome: 'Dora', cognome: 'Diretta', targa: 'DM112AA', stato: 12 },
  { nome: 'Elio', cognome: 'Form', targa: 'DM104AA', stato: 4 },
  { nome: 'Fabia', cognome: 'Documenti', targa: 'DM105AA', stato: 5 },
  { nome: 'Gino', cognome: 'Verifica', targa: 'DM106AA', stato: 6 },
  { nome: 'Ilaria', cognome: 'Emissione', targa: 'DM107AA', stato: 7 },
  { nome: 'Luigi', cognome: 'Richiesta', targa: 'DM108AA', stato: 8 },
  { nome: 'Marta', cognome: 'Firma', targa: 'DM109AA', stato: 7, passi: ['emetti'] },
  { nome: 'Nino', cognome: 'Successo', targa: 'DM110AA', stato: 7, passi: ['emetti', 'firma', 'rinnova'] },
  { nome: 'Olga', cognome: 'Errore', targa: 'ERR111AA', stato: 7, passi: ['emetti'] },
  { nome: 'Piero', cognome: 'Stornata', targa: 'DM113AA', stato: 7, passi: ['emetti', 'storna'] },
  { nome: 'Rita', cognome: 'Seconda', targa: 'DM114AA', stato: 7, passi: ['emetti'] },
];

/** Demo data goes through the third parties' sandboxes (the defaults), whatever the configuration. */
const SANDBOXES = loadConfig();

/** `media`: where the issued quotations' contracts to sign go (the demo's document store). */
export async function seedQuotazioniPerStato(db: Database, definitions: Definitions, deps: RepositoryDeps, user: AuthUser, collaboratore: number, media: MediaStore): Promise<number> {
  const existing = await sql<{ n: number }>`SELECT count(*)::int AS n FROM quotazione WHERE email LIKE ${`%${DOMINIO}`}`.execute(db);
  if (existing.rows[0]!.n > 0) return 0;
  const def = definitions.resources.get('quotazione')!;
  const workflow = new Workflow(definitions.workflows.get('quotazione_auto_storica') as WorkflowDefinition, QUOTAZIONE_GUARDS);
  const repo = new ResourceRepository(def, deps, undefined, workflow);
  // The historic-car product of the demo's mandates sells the quotations' product: issued policies join the policies list with it.
  const prodotti = new ResourceRepository(definitions.resources.get('categoria_prodotto')!, deps);
  const configurato = await sql`SELECT 1 FROM categoria_prodotto WHERE mandatabile_type = 'auto_storica_itas'`.execute(db);
  const rcStoriche = (await sql<{ id: number; version: number }>`
    SELECT id, version FROM categoria_prodotto WHERE nome = 'RC Auto Storiche' AND attivo AND mandato_attivo ORDER BY id LIMIT 1`.execute(db)).rows[0];
  if (!configurato.rows.length && rcStoriche) await prodotti.update(db, user, rcStoriche.id, { mandatabile_type: 'auto_storica_itas' }, rcStoriche.version);
  const s: Servizio = {
    db, def, workflow, repo, polizze: new ResourceRepository(definitions.resources.get('polizza_auto_storica')!, deps),
    elenco: new ResourceRepository(definitions.resources.get('polizza')!, deps),
    compagnia: emissioneAutoStoriche(SANDBOXES, db), koala: koalaBroker(SANDBOXES, db), registri: registriAdapter(SANDBOXES),
    // Issued as staff issue: with the contract to sign ('Firma Digitale OTP' and 'Firma Manuale' work on them).
    contratto: (trx, u, quotazione) => deps.extensions.serviceOf<ContrattoEmesso>(CONTRATTO_EMESSO)(media, trx, quotazione, u),
  };
  const modello = (await sql<{ id: number; marca: string; modello: string; anno: number | null; anno_da: number | null }>`
    SELECT id, marca, modello, anno, anno_da FROM autostoriche WHERE modello ILIKE '500%' ORDER BY id LIMIT 1`.execute(db)).rows[0];
  if (!modello) return 0;
  const oggi = oggiIso();
  let created = 0;
  for (const piano of PIANI) {
    const veicoli_storici = [{ auto_storica_id: modello.id, marca: modello.marca, modello: modello.modello, anno: modello.anno ?? modello.anno_da ?? 1968, tipologia_ania: 'A', targa: piano.targa, tipologia_targa: 'V' }];
    const { model: q } = await repo.create(db, user, {
      persona: 'f', sesso: 'M', nome: piano.nome, cognome: piano.cognome, email: `${piano.nome}.${piano.cognome}${DOMINIO}`.toLowerCase(),
      telefono: '+39 333 1112233', cfisc: 'RSSMRA80A01H501U', provincia_codice: 'RM', competenze: 25, veicoli_storici, collaboratore_id: collaboratore,
    });
    const id = q.id as number;
    const result = await calcola(db, { ...q, veicoli_storici } as never);
    await repo.updateOwned(db, user, id, { colore: result.colore, premio: result.premio, premio_verti: result.premio_verti, preventivi: result.preventivi, veicoli_storici: result.veicoli_storici });
    if (piano.stato) await repo.transition(db, user, id, { type: 'CAMBIO_STATO', stato: piano.stato });
    if (piano.passi?.length) await sql`UPDATE quotazione SET data_incasso = ${oggi} WHERE id = ${id}`.execute(db);
    for (const passo of piano.passi ?? []) {
      if (passo === 'emetti') await emetti(s, user, id, oggi, {});
      // Signature is another part of the product: the demo marks it done by the manual status change.
      if (passo === 'firma') await repo.transition(db, user, id, { type: 'CAMBIO_STATO', stato: 10 });
      if (passo === 'rinnova') await rinnova(s, user, id);
      if (passo === 'storna') {
        const numero = (await repo.get(db, user, id)).verti_policy_number as string;
        await storna(s, user, id, numero);
      }
    }
    created++;
  }
  return created;
}
