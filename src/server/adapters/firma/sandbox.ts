// Deterministic sandbox of the e-signature provider: requests advance on a clock (or by the test hook), and the
// signer's e-mail picks a failure: "rifiuto" refuses the request, "timeout" accepts it but answers too late.
import { createHash } from 'node:crypto';
import { FirmaError, type EsitoFirma, type FirmaProvider, type RichiestaFirma, type StatoFirma } from './types.ts';

interface SandboxRequest {
  richiesta: RichiestaFirma;
  id: string;
  creata: number;
  stato: StatoFirma;
  firmataIl?: number;
}

export class SandboxFirma implements FirmaProvider {
  readonly nome = 'sandbox';
  private readonly byKey = new Map<string, SandboxRequest>();
  private readonly byId = new Map<string, SandboxRequest>();

  /** delayMs: how long an otp request stays ongoing before the signer "signs"; 0 = only by avanza(). */
  constructor(private readonly delayMs = 5000, private readonly now: () => number = Date.now) {}

  async invia(richiesta: RichiestaFirma): Promise<EsitoFirma> {
    const email = richiesta.firmatario.email.toLowerCase();
    if (email.includes('rifiuto')) {
      throw new FirmaError('Richiesta di firma rifiutata dal servizio di firma.', [`Il firmatario ${richiesta.firmatario.email} non è abilitato alla firma ${richiesta.modalita === 'otp' ? 'OTP' : 'manuale'}.`]);
    }
    if (richiesta.modalita === 'otp' && !richiesta.firmatario.telefono) {
      throw new FirmaError('Richiesta di firma non valida.', ['Per la firma OTP serve il numero di telefono del firmatario.']);
    }
    if (!richiesta.documenti.length) throw new FirmaError('Richiesta di firma non valida.', ['Nessun documento da firmare.']);
    let found = this.byKey.get(richiesta.chiave);
    if (!found) {
      // The id follows from the key: a retry after a timeout finds the same request, never a second one.
      const id = `sbx-${createHash('sha256').update(richiesta.chiave).digest('hex').slice(0, 16)}`;
      found = { richiesta, id, creata: this.now(), stato: richiesta.modalita === 'otp' ? 'ongoing' : 'draft' };
      this.byKey.set(richiesta.chiave, found);
      this.byId.set(id, found);
      if (email.includes('timeout')) throw new FirmaError('Il servizio di firma non ha risposto in tempo.', [], true);
    }
    return this.esito(found);
  }

  async stato(id: string): Promise<EsitoFirma> {
    const found = this.byId.get(id);
    if (!found) return { id, stato: 'expired', motivo: 'Richiesta sconosciuta al servizio di firma.' };
    return this.esito(found);
  }

  /** Test hook: moves a request on (draft -> ongoing -> done), or to the state given. */
  avanza(id: string, stato?: StatoFirma): void {
    const found = this.byId.get(id);
    if (!found) throw new Error(`sandbox: unknown signature request ${id}`);
    found.stato = stato ?? (found.stato === 'draft' ? 'ongoing' : 'done');
    if (found.stato === 'done') found.firmataIl ??= this.now();
  }

  /** Every request the sandbox knows (tests, demo). */
  richieste(): Array<{ id: string; chiave: string; stato: StatoFirma }> {
    return [...this.byId.values()].map((r) => ({ id: r.id, chiave: r.richiesta.chiave, stato: r.stato }));
  }

  private esito(found: SandboxRequest): EsitoFirma {
    if (found.stato === 'ongoing' && this.delayMs > 0 && this.now() - found.creata >= this.delayMs) {
      found.stato = 'done';
      found.firmataIl = this.now();
    }
    return { id: found.id, stato: found.stato };
  }

  async documentoFirmato(id: string): Promise<Buffer> {
    const found = this.byId.get(id);
    if (!found || found.stato !== 'done') throw new FirmaError('Documento firmato non disponibile.', [`La richiesta ${id} non è firmata.`]);
    // The signed file: the documents sent (PDF pages copied, images as pages) and a signature certificate page.
    const { PDFDocument, StandardFonts, rgb } = await import('pdf-lib');
    const out = await PDFDocument.create();
    for (const doc of found.richiesta.documenti) {
      if (doc.mime === 'application/pdf') {
        const source = await PDFDocument.load(doc.contenuto, { ignoreEncryption: true });
        for (const page of await out.copyPages(source, source.getPageIndices())) out.addPage(page);
      } else {
        const image = doc.mime === 'image/png' ? await out.embedPng(doc.contenuto) : await out.embedJpg(doc.contenuto);
        const scaled = image.scaleToFit(515, 762);
        const page = out.addPage([595, 842]);
        page.drawImage(image, { x: 40, y: 842 - 40 - scaled.height, width: scaled.width, height: scaled.height });
      }
    }
    const page = out.addPage([595, 842]);
    const font = await out.embedFont(StandardFonts.Helvetica);
    const bold = await out.embedFont(StandardFonts.HelveticaBold);
    const f = found.richiesta.firmatario;
    const quando = new Date(found.firmataIl ?? this.now()).toLocaleString('it-IT', { timeZone: 'Europe/Rome' });
    page.drawText('Certificato di firma', { x: 50, y: 780, size: 20, font: bold, color: rgb(0.1, 0.2, 0.5) });
    const lines = [
      `Firmatario: ${f.nome}`,
      `Email: ${f.email}`,
      `Modalità: ${found.richiesta.modalita === 'otp' ? 'Firma Digitale OTP' : 'Firma Manuale'}`,
      `Firmato il: ${quando}`,
      `Richiesta: ${found.id}`,
      `Documenti: ${found.richiesta.documenti.map((d) => d.nome).join(', ')}`,
      'Servizio di firma: ambiente di prova (sandbox)',
    ];
    lines.forEach((line, i) => page.drawText(line, { x: 50, y: 740 - i * 22, size: 12, font, maxWidth: 495 }));
    out.setTitle(`Documenti firmati ${found.id}`);
    out.setProducer('Broker Back Office - firma sandbox');
    return Buffer.from(await out.save());
  }
}
