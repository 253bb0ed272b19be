// The e-signature provider as the back office sees it; a deterministic sandbox and an HTTP implementation satisfy it.

/** draft: prepared, waiting to be sent (manual mode); ongoing: with the signer; done: signed. refused/expired end it. */
export type StatoFirma = 'draft' | 'ongoing' | 'done' | 'refused' | 'expired';
export type ModalitaFirma = 'otp' | 'manual';

export interface DocumentoDaFirmare {
  nome: string;
  mime: string;
  contenuto: Buffer;
}

export interface RichiestaFirma {
  /** Idempotency key, stored before the call: the same key always answers the same request. */
  chiave: string;
  modalita: ModalitaFirma;
  firmatario: { nome: string; email: string; telefono: string | null };
  documenti: DocumentoDaFirmare[];
}

export interface EsitoFirma {
  id: string;
  stato: StatoFirma;
  motivo?: string;
}

export class FirmaError extends Error {
  constructor(message: string, readonly errori: string[] = [], readonly timeout = false) {
    super(message);
  }
}

export interface FirmaProvider {
  readonly nome: string;
  invia(richiesta: RichiestaFirma): Promise<EsitoFirma>;
  stato(id: string): Promise<EsitoFirma>;
  /** The signed PDF of a done request. */
  documentoFirmato(id: string): Promise<Buffer>;
}
