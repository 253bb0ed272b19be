// Idempotent demo data: collaborators, customers and one user per role, written through the same validation as the API.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { sql } from 'kysely';
import type { Database } from '../db/connection.ts';
import { loadAll } from '../bootstrap.ts';
import { createAjv } from '../../shared/validation.ts';
import { ResourceRepository, type RepositoryDeps } from '../resources/repository.ts';
import { collectExtensions } from '../extensions.ts';
import { domains } from '../domains/index.ts';
import type { AuthUser } from '../auth/user.ts';
import { exemptFromMfa } from '../auth/mfa.ts';
import { registraAccesso } from '../storico/contesto.ts';

/** Why the demo users log in without the verification their role requires. */
const DEMO_EXEMPTION = 'Utente dimostrativo (npm run seed:demo): password pubblicata, nessun dato reale';
import { SUPER_ADMIN } from '../../shared/permissions.ts';
import { computeCodiceFiscale } from '../../shared/validators/codiceFiscale.ts';
import '../domains/index.ts';
import { parse } from 'csv-parse/sync';
import { seedFornitori } from '../domains/compagnia/demo.ts';
import { seedQuotazioniRca } from '../domains/quotazioni_rca/demo.ts';
import { seedPolizze } from '../domains/polizza/demo.ts';
import { seedDocumenti } from './documenti.ts';
import { createMediaStore, mediaSettings, type MediaSettings } from '../media/store.ts';
import { calcola } from '../adapters/auto-storiche/calcolo.ts';
import { Workflow, type WorkflowDefinition } from '../../shared/workflow/machine.ts';
import { NAZIONE_ITALIA } from '../../shared/validators/nazione.ts';
import { seedQuotazioniPerStato } from '../domains/polizza_auto_storica/demo.ts';
import { QUOTAZIONE_GUARDS } from '../../shared/domains/quotazione/guards.ts';

const ROOT = path.resolve(import.meta.dirname, '..', '..', '..');

interface DemoUser { email: string; password: string; name: string; roles: string[]; collaboratore?: string }

// Real municipalities: ISTAT code, cadastral code, province, a CAP of the centre.
const COMUNI = [
  { istat: '058091', catastale: 'H501', prov: 'RM', cap: '00184', nome: 'ROMA' },
  { istat: '015146', catastale: 'F205', prov: 'MI', cap: '20121', nome: 'MILANO' },
  { istat: '063049', catastale: 'F839', prov: 'NA', cap: '80133', nome: 'NAPOLI' },
  { istat: '001272', catastale: 'L219', prov: 'TO', cap: '10121', nome: 'TORINO' },
  { istat: '048017', catastale: 'D612', prov: 'FI', cap: '50122', nome: 'FIRENZE' },
  { istat: '037006', catastale: 'A944', prov: 'BO', cap: '40121', nome: 'BOLOGNA' },
  { istat: '050026', catastale: 'G702', prov: 'PI', cap: '56125', nome: 'PISA' },
  { istat: '010025', catastale: 'D969', prov: 'GE', cap: '16121', nome: 'GENOVA' },
  { istat: '082053', catastale: 'G273', prov: 'PA', cap: '90133', nome: 'PALERMO' },
  { istat: '072006', catastale: 'A662', prov: 'BA', cap: '70121', nome: 'BARI' },
];

const NOMI_M = ['Marco', 'Luca', 'Giuseppe', 'Francesco', 'Alessandro', 'Andrea', 'Stefano', 'Roberto', 'Davide', 'Matteo'];
const NOMI_F = ['Anna', 'Francesca', 'Chiara', 'Sara', 'Valentina', 'Elena', 'Martina', 'Silvia', 'Paola', 'Federica'];
const COGNOMI = ['Esposito', 'Russo', 'Ferrari', 'Romano', 'Colombo', 'Ricci', 'Marino', 'Greco', 'Bruno', 'Gallo', 'Conti', 'De Luca', 'Mancini', 'Costa', 'Giordano'];
const VIE = ['Via Roma', 'Corso Italia', 'Via Garibaldi', 'Piazza Dante', 'Via Mazzini', 'Via Verdi', 'Viale Europa'];

const COLLABORATORI = [
  { key: 'ASSICURA', sesso: 'A', nome: 'Assicura Network Srl', tipo: 'BROKER', piva: '01234567897', email: 'info@assicuranetwork.it', cell: '+39 06 5551234' },
  { key: 'ROSSI', sesso: 'M', nome: 'Mario', cognome: 'Rossi', dataNascita: '1975-03-14', comune: 0, tipo: 'AGENTE', email: 'mario.rossi@demo.broker.it', cell: '+39 333 1234567', superiore: 'ASSICURA' },
  { key: 'VERDI', sesso: 'F', nome: 'Laura', cognome: 'Verdi', dataNascita: '1982-11-02', comune: 1, tipo: 'COLLABORATORE', email: 'laura.verdi@demo.broker.it', cell: '+39 347 7654321', superiore: 'ASSICURA' },
];

const SYSTEM_USER: AuthUser = { id: 0, email: 'seed', name: 'seed', collaboratore_id: null, tokenId: 0, roles: [SUPER_ADMIN], permissions: [] };

/** `media`: where the demo documents go, the server's own configuration (the bytes in PostgreSQL by default). */
export async function seedDemo(db: Database, log: (line: string) => void, media: MediaSettings = mediaSettings({ MEDIA_STORAGE: 'postgres' })): Promise<void> {
  const { definitions } = await loadAll(path.join(ROOT, 'schemas'));
  const deps: RepositoryDeps = { ajv: createAjv(), definitions, extensions: await collectExtensions(definitions, domains) };
  const repo = (name: string) => new ResourceRepository(definitions.resources.get(name)!, deps);
  const one = async (table: string, column: string, value: unknown) =>
    (await sql<{ id: number }>`SELECT id FROM ${sql.table(table)} WHERE ${sql.ref(column)} = ${value} LIMIT 1`.execute(db)).rows[0]?.id;

  const collaboratori = new Map<string, number>();
  for (const c of COLLABORATORI) {
    let id = await one('collaboratore', 'email', c.email);
    if (!id) {
      const comune = c.comune === undefined ? undefined : COMUNI[c.comune]!;
      const record: Record<string, unknown> = {
        sesso: c.sesso, nome: c.nome, tipo: c.tipo, email: c.email, cell: c.cell, active: true,
        ...(c.piva ? { piva: c.piva } : {}),
        ...(c.cognome ? { cognome: c.cognome, dataNascita: c.dataNascita } : {}),
        ...(comune ? {
          comune_nascita_id: comune.istat, comuneNascita: comune.nome, provinciaNascita: comune.prov,
          cf: computeCodiceFiscale({ cognome: c.cognome!, nome: c.nome, dataNascita: c.dataNascita!, sesso: c.sesso as 'M' | 'F', codiceCatastale: comune.catastale }),
        } : {}),
        ...(c.superiore ? { punto_vendita_superiore_id: collaboratori.get(c.superiore) } : {}),
        provvigioni_settori: [
          { id: 1, nome: 'DANNI', perc_provvigione: c.key === 'ROSSI' ? 30 : 12, tipo_provvigione: 'PERC_IMPONIBILE' },
          { id: 2, nome: 'RCA', perc_provvigione: c.key === 'ROSSI' ? 75 : 40, tipo_provvigione: 'PERC_RETROCESSIONE' },
          { id: 3, nome: 'VITA', perc_provvigione: c.key === 'ROSSI' ? 5 : 1, tipo_provvigione: 'PERC_IMPONIBILE' },
        ],
      };
      id = (await repo('collaboratore').create(db, SYSTEM_USER, record)).model.id as number;
    }
    collaboratori.set(c.key, id);
  }

  let created = 0;
  for (let i = 0; i < 40; i++) {
    const female = i % 3 === 1;
    const nome = (female ? NOMI_F : NOMI_M)[i % 10]!;
    const cognome = COGNOMI[(i * 7) % COGNOMI.length]!;
    const comune = COMUNI[i % COMUNI.length]!;
    const residenza = COMUNI[(i + 3) % COMUNI.length]!;
    const dataNascita = `${1950 + ((i * 3) % 50)}-${String(1 + (i % 12)).padStart(2, '0')}-${String(1 + ((i * 5) % 28)).padStart(2, '0')}`;
    const cf = computeCodiceFiscale({ cognome, nome, dataNascita, sesso: female ? 'F' : 'M', codiceCatastale: comune.catastale });
    if (await one('cliente', 'cf', cf)) continue;
    const collaboratore = i % 4 === 0 ? undefined : i % 2 === 0 ? collaboratori.get('VERDI') : collaboratori.get('ROSSI');
    await repo('cliente').create(db, SYSTEM_USER, {
      tipo: i % 9 === 0 ? 'PROFESSIONISTA' : 'RETAIL',
      sesso: female ? 'F' : 'M', nome, cognome, dataNascita, cf,
      comune_nascita_id: comune.istat, nazioneNascita: NAZIONE_ITALIA,
      residenzaIndirizzo: VIE[i % VIE.length], residenzaCivico: String(1 + ((i * 13) % 120)),
      residenza_comune_id: residenza.istat, residenzaCap: residenza.cap, residenzaProv: residenza.prov,
      documentoTipo: i % 2 ? 'PASSAPORTO' : 'CARTA_IDENTITA', documentoNumero: `CA${String(10000 + i * 37).padStart(5, '0')}XY`,
      documentoScadenza: `${2027 + (i % 6)}-06-30`, documentoRilasciatoDa: `Comune di ${residenza.nome}`,
      cell: `+39 3${String(20 + (i % 70)).padStart(2, '0')} ${String(1000000 + i * 7919).slice(0, 7)}`,
      email: `${nome}.${cognome}${i}@esempio.it`.toLowerCase().replace(/\s+/g, ''),
      occupazione: ['DIPENDENTE_PRIVATO', 'PENSIONATO', 'LAVORATORE_AUTONOMO', 'DIPENDENTE_PUBBLICO'][i % 4],
      comunicazioniCommerciali: i % 2 === 0,
      isprospect: i % 5 === 0,
      ...(collaboratore ? { collaboratore_id: collaboratore } : {}),
      attivo: i % 11 !== 10,
    });
    created++;
  }

  const fornitori = await seedFornitori(db, repo, SYSTEM_USER);
  const models = await seedModelli(db, repo);
  const store = createMediaStore(media);
  const quotazioni = await seedQuotazioni(db, definitions.workflows.get('quotazione_auto_storica') as WorkflowDefinition, deps, definitions, collaboratori.get('ROSSI')!)
    + await seedQuotazioniPerStato(db, definitions, deps, SYSTEM_USER, collaboratori.get('ROSSI')!, store);
  const polizze = await seedPolizze(db, repo, SYSTEM_USER);

  const rca = await seedQuotazioniRca(db, definitions, deps, collaboratori.get('ROSSI')!);
  const documenti = await seedDocumenti(db, store);

  const users: DemoUser[] = JSON.parse(await readFile(path.join(ROOT, 'scripts', 'demo', 'users.json'), 'utf8'));
  for (const u of users) {
    const id = (await one('utente', 'email', u.email)) ?? Number((await repo('utente').create(db, SYSTEM_USER, {
      email: u.email, name: u.name, password: u.password, ruoli: u.roles, attivo: true,
      ...(u.collaboratore ? { collaboratore_id: collaboratori.get(u.collaboratore) } : {}),
    })).model.id);
    // Published passwords and no phone: the demo users are let off their role's required verification, recorded
    // and shown to the super_admin (GET /api/utente/{id}/mfa), who can revoke it. A revoked exemption is not restored.
    const known = await sql`SELECT 1 FROM storico WHERE risorsa = 'utente' AND record_id = ${id} AND evento LIKE 'mfa_esenzione_%' LIMIT 1`.execute(db);
    if (!known.rows.length) {
      await exemptFromMfa(db, id, DEMO_EXEMPTION, 'seed:demo');
      await registraAccesso(db, 'utente', 'mfa_esenzione_concessa', { id, name: u.name });
    }
  }
  log(`demo data ready: ${created} new customers, ${collaboratori.size} collaborators, ${fornitori.fornitori} suppliers, ${fornitori.prodotti} mandate products, ${models} historic-car models, ${quotazioni} quotations, ${polizze} policies, ${rca} RCA quotations, ${documenti} documents; users:`);
  for (const u of users) log(`  ${u.roles.join(',').padEnd(14)} ${u.email}  password: ${u.password}`);
  log('  (demo users are exempt from the two-step verification their role requires: GET /api/utente/{id}/mfa)');
}

/** The historic-car models of scripts/demo/autostoriche.csv, when the catalogue is empty. */
async function seedModelli(db: Database, repo: (name: string) => ResourceRepository): Promise<number> {
  const existing = await sql<{ n: number }>`SELECT count(*)::int AS n FROM autostoriche`.execute(db);
  if (existing.rows[0]!.n > 0) return 0;
  const rows: Array<Record<string, string>> = parse(await readFile(path.join(ROOT, 'scripts', 'demo', 'autostoriche.csv'), 'utf8'), { columns: true, delimiter: ';', skip_empty_lines: true });
  const numeric = new Set(['cilindrata', 'cilindrata_da', 'cilindrata_a', 'anno', 'anno_da', 'anno_a', 'valore_a', 'valore_b', 'valore_c']);
  for (const row of rows) {
    const record = Object.fromEntries(Object.entries(row).filter(([, v]) => v !== '').map(([k, v]) => [k, numeric.has(k) ? Number(v.replace(',', '.')) : v]));
    await repo('autostoriche').create(db, SYSTEM_USER, record);
  }
  return rows.length;
}

/** A few quotations of Mario Rossi in different statuses, moved there through the workflow like the app would. */
async function seedQuotazioni(db: Database, machine: WorkflowDefinition, deps: RepositoryDeps, definitions: Awaited<ReturnType<typeof loadAll>>['definitions'], collaboratore: number): Promise<number> {
  const existing = await sql<{ n: number }>`SELECT count(*)::int AS n FROM quotazione`.execute(db);
  if (existing.rows[0]!.n > 0) return 0;
  const workflow = new Workflow(machine, QUOTAZIONE_GUARDS);
  const repo = new ResourceRepository(definitions.resources.get('quotazione')!, deps, undefined, workflow);
  const model = async (modello: string) => (await sql<{ id: number; marca: string; modello: string; anno_da: number | null; anno: number | null; tipologia: string | null }>`
    SELECT id, marca, modello, anno_da, anno, tipologia FROM autostoriche WHERE modello ILIKE ${modello + '%'} ORDER BY id LIMIT 1`.execute(db)).rows[0];
  const veicolo = async (modello: string, targa: string) => {
    const m = (await model(modello))!;
    return { auto_storica_id: m.id, marca: m.marca, modello: m.modello, anno: m.anno ?? m.anno_da ?? 1970, tipologia_ania: m.tipologia ?? 'A', targa, tipologia_targa: 'V' };
  };
  const staff: AuthUser = { ...SYSTEM_USER, collaboratore_id: collaboratore };
  const plans: Array<{ cliente: Record<string, unknown>; veicoli: Array<[string, string]>; events: string[] }> = [
    { cliente: { nome: 'Paolo', cognome: 'Greco', email: 'paolo.greco@esempio.it', provincia_codice: 'RM' }, veicoli: [['500 F', 'RM123456']], events: [] },
    { cliente: { nome: 'Lucia', cognome: 'Romano', email: 'lucia.romano@esempio.it', provincia_codice: 'MI' }, veicoli: [['124 Spider', 'MI654321']], events: ['CONFERMA'] },
    { cliente: { nome: 'Franco', cognome: 'Bruno', email: 'franco.bruno@esempio.it', provincia_codice: 'FI' }, veicoli: [['Giulia', 'FI112233'], ['Fulvia', 'FI445566']], events: ['CONFERMA'] },
  ];
  for (const plan of plans) {
    const veicoli_storici = await Promise.all(plan.veicoli.map(([m, targa]) => veicolo(m, targa)));
    const { model: q } = await repo.create(db, staff, { persona: 'f', sesso: 'M', ...plan.cliente, telefono: '+39 333 0000000', competenze: 25, veicoli_storici, collaboratore_id: collaboratore });
    const result = await calcola(db, { ...q, veicoli_storici } as never);
    await repo.updateOwned(db, staff, q.id as number, { colore: result.colore, premio: result.premio, premio_verti: result.premio_verti, preventivi: result.preventivi, veicoli_storici: result.veicoli_storici });
    for (const type of plan.events) await repo.transition(db, staff, q.id as number, { type });
  }
  return plans.length;
}
