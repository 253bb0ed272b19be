// Demo suppliers, contractual companies and mandate rows; idempotent, written through the same validation and hooks as the API.
import { sql } from 'kysely';
import type { Database } from '../../db/connection.ts';
import type { AuthUser } from '../../auth/user.ts';
import type { ResourceRepository } from '../../resources/repository.ts';
import { SUPER_ADMIN } from '../../../shared/permissions.ts';

export interface SeedFornitoriResult {
  fornitori: number;
  compagnieContrattuali: number;
  prodotti: number;
}

const SEED_USER: AuthUser = { id: 0, email: 'seed', name: 'seed', collaboratore_id: null, tokenId: 0, roles: [SUPER_ADMIN], permissions: [] };

// Fictitious companies with valid check digits (partita IVA, IBAN) and real addresses, CAPs and provinces.
const FORNITORI = [
  {
    ragioneSociale: 'Tirrenica Assicurazioni S.p.A.', tipoCompagnia: 'DIRETTO', piva: '01834710327',
    indirizzo: 'Via Cristoforo Colombo', civico: '149', citta: 'Roma', cap: '00147', prov: 'RM',
    referente: 'Giulia Santoro', referenteRuolo: 'Responsabile Rete Broker',
    email: 'broker@tirrenica-assicurazioni.it', pec: 'tirrenica@pec.tirrenica-assicurazioni.it',
    emailAmministrazione: 'amministrazione@tirrenica-assicurazioni.it', emailPerEstrattoConto: 'estratticonto@tirrenica-assicurazioni.it',
    emailQuotazioni: 'quotazioni@tirrenica-assicurazioni.it', emailPECReclami: 'reclami@pec.tirrenica-assicurazioni.it',
    tel: '+39 06 54128800', codiceDestinatario: 'M5UXCR1', numeroCCIAA: 'RM', numeroREA: 'RM-1023456',
    percentRitenuta: 11.5, dataAccordo: '2019-03-01', tipologiaRimesse: 'FINE_MESE',
    IBANContoPremi: 'IT45X0306902117100000004321', articolo117: true, sitoUfficiale: 'https://www.tirrenica-assicurazioni.it',
  },
  {
    ragioneSociale: 'Adriatica Underwriting S.r.l.', tipoCompagnia: 'FORNITORE', piva: '02645190816',
    indirizzo: 'Via Vittor Pisani', civico: '16', citta: 'Milano', cap: '20124', prov: 'MI',
    referente: 'Paolo Ferretti', referenteRuolo: 'Direttore Tecnico',
    email: 'info@adriatica-uw.it', pec: 'adriatica-uw@legalmail.it', emailAmministrazione: 'contabilita@adriatica-uw.it',
    emailQuotazioni: 'preventivi@adriatica-uw.it', tel: '+39 02 67074410', cell: '+39 335 6124980',
    codiceDestinatario: 'KRRH6B9', numeroCCIAA: 'MI', numeroREA: 'MI-2087341',
    percentRitenuta: 4.6, dataAccordo: '2021-09-15', tipologiaRimesse: 'ENTRO_10',
    iscrizioneRUI: 'A000512345', iscrizioneRUIData: '2015-06-22', IBANContoPremi: 'IT95Y0503401633000000012877',
    sitoUfficiale: 'www.adriatica-uw.it',
  },
  {
    ragioneSociale: 'Ligure Broker Service S.r.l.', tipoCompagnia: 'FORNITORE', piva: '07356820154',
    indirizzo: 'Via XX Settembre', civico: '41', citta: 'Genova', cap: '16121', prov: 'GE',
    referente: 'Marta Gualco', referenteRuolo: 'Amministrazione',
    email: 'ufficio@ligurebroker.it', pec: 'ligurebroker@pec.it', emailPerEstrattoConto: 'ec@ligurebroker.it',
    tel: '+39 010 5705512', codiceDestinatario: 'SUBM70N', numeroCCIAA: 'GE', numeroREA: 'GE-4471209',
    percentRitenuta: 11.5, dataAccordo: '2022-02-01', tipologiaRimesse: 'DECADALE',
    iscrizioneRUI: 'B000498765', iscrizioneRUIData: '2012-11-05', IBANContoPremi: 'IT73K0200802435000104567890',
    isEsclusoFoglioCassa: true,
  },
] as const;

const COMPAGNIE_CONTRATTUALI = [
  { nome: 'Assicuratrice Tirrenica', visibile_allegato_4: true, esiste_ratifica: true, associato_preventivatore_rca: true, effettua_versamenti_netto_provvigioni: false },
  { nome: 'Tirrenica Vita', visibile_allegato_4: true, esiste_ratifica: false, associato_preventivatore_rca: false, effettua_versamenti_netto_provvigioni: false },
  { nome: 'Europa Tutela Giudiziaria', visibile_allegato_4: true, esiste_ratifica: false, associato_preventivatore_rca: false, effettua_versamenti_netto_provvigioni: true },
] as const;

// [supplier index, contractual company index, name, settore_id, ramo_id (schemas/_reference/rami.json), commission %, start, active]
const PRODOTTI: Array<[number, number, string, number, number, number, string, boolean]> = [
  [0, 0, 'RC Auto Storiche', 2, 10, 12, '2019-03-01', true],
  [0, 0, 'RC Auto', 2, 10, 8, '2019-03-01', true],
  [0, 0, 'Incendio e Furto', 1, 8, 20, '2019-03-01', true],
  [0, 0, 'Infortuni Conducente', 1, 1, 25, '2020-01-01', true],
  [0, 0, 'Assistenza Stradale', 1, 18, 30, '2020-01-01', true],
  [0, 1, 'Vita Risparmio', 3, 19, 3.5, '2021-04-01', true],
  [0, 1, 'Temporanea Caso Morte', 3, 19, 15, '2021-04-01', true],
  [1, 2, 'Tutela Legale', 1, 17, 22, '2021-09-15', true],
  [1, 0, 'RC Auto Storiche', 2, 10, 10, '2021-09-15', true],
  [2, 0, 'RC Capofamiglia', 1, 13, 18, '2022-02-01', true],
  [2, 0, 'Kasko Auto Storiche', 1, 3, 15, '2022-02-01', false],
];

/** Creates what is missing; returns how many records of each kind it created. */
export async function seedFornitori(
  db: Database,
  repoFor: (resource: string) => ResourceRepository,
  user: AuthUser = SEED_USER,
): Promise<SeedFornitoriResult> {
  const result: SeedFornitoriResult = { fornitori: 0, compagnieContrattuali: 0, prodotti: 0 };
  const fornitori: number[] = [];
  for (const f of FORNITORI) {
    let id = (await sql<{ id: number }>`SELECT id FROM compagnia WHERE piva = ${f.piva} LIMIT 1`.execute(db)).rows[0]?.id;
    if (!id) {
      id = (await repoFor('compagnia').create(db, user, { ...f, attivo: true })).model.id as number;
      result.fornitori++;
    }
    fornitori.push(id);
  }
  const contrattuali: number[] = [];
  for (const c of COMPAGNIE_CONTRATTUALI) {
    let id = (await sql<{ id: number }>`SELECT id FROM compagnia_contrattuale WHERE lower(nome) = lower(${c.nome}) LIMIT 1`.execute(db)).rows[0]?.id;
    if (!id) {
      id = (await repoFor('compagnia_contrattuale').create(db, user, { ...c, attivo: true })).model.id as number;
      result.compagnieContrattuali++;
    }
    contrattuali.push(id);
  }
  for (const [f, c, nome, settore, ramo, percentuale, inizio, attivo] of PRODOTTI) {
    const exists = await sql`
      SELECT 1 FROM categoria_prodotto
      WHERE compagnia_fornitore_id = ${fornitori[f]} AND compagnia_contrattuale_id = ${contrattuali[c]} AND lower(nome) = lower(${nome})`.execute(db);
    if (exists.rows.length) continue;
    await repoFor('categoria_prodotto').create(db, user, {
      nome, compagnia_fornitore_id: fornitori[f], compagnia_contrattuale_id: contrattuali[c], settore_id: settore, ramo_id: ramo,
      percentuale_provvigione_attiva: percentuale, data_inizio_mandato: inizio, mandato_attivo: attivo, attivo: true,
    });
    result.prodotti++;
  }
  return result;
}
