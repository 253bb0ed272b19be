// The broker accounting system 'Koala': receives the data of an issued policy; a resend sends them again (duplicates included).

export interface DatiEmissioneKoala {
  numero_polizza: string;
  infodrive_id?: string;
  quotazione_id: number;
  contraente: string;
  codice_fiscale?: string;
  decorrenza: string;
  scadenza: string;
  premio: number;
  competenze: number;
  collaboratore_id?: number;
}

export type EsitoKoala = { ok: true; id_importazione: string } | { ok: false; errori: string[] };

export class KoalaNonRaggiungibile extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'KoalaNonRaggiungibile';
  }
}

export interface KoalaBroker {
  /** Each call is one import on Koala's side, keyed so that a transport retry of the same call imports once. */
  reimportaEmissione(chiave: string, dati: DatiEmissioneKoala): Promise<EsitoKoala>;
}
