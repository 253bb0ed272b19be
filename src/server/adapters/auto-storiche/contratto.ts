// The sandbox insurer's contract: a real PDF built from the quotation's data (pdf-lib), as the insurer would return it.
import type { PDFFont, PDFPage } from 'pdf-lib';
import { formatEuro, fromCents, toCents } from '../../../shared/money.ts';

export interface QuotazionePerContratto {
  id: number;
  nome?: string | null;
  cognome?: string | null;
  rsoc?: string | null;
  cfisc?: string | null;
  piva?: string | null;
  email?: string | null;
  telefono?: string | null;
  residenzaIndirizzo?: string | null;
  residenzaCivico?: string | null;
  residenzaCap?: string | null;
  provincia_codice?: string | null;
  decorrenza?: string | null;
  premio?: number | null;
  premio_forzato?: number | null;
  competenze?: number | null;
  verti_policy_number?: string | null;
  veicoli_storici?: Array<{ marca?: string; modello?: string; anno?: number; targa?: string | null; valore?: number | null; furto?: boolean | null }> | null;
  veicoli_moderni?: Array<{ targa?: string | null; marca?: string | null; modello?: string | null }> | null;
}

// The standard fonts encode WinAnsi: anything else would make pdf-lib throw, so it is replaced.
const printable = (value: unknown) => String(value ?? '').normalize('NFC').replace(/[\u202f\u2009]/g, ' ').replace(/[^\x20-\x7e\u00a0-\u00ff€]/g, '?');

/**
 * `codice`: the contract's own code, printed on every page and kept in the PDF's keywords, so a copy given back signed
 * can be told from any other PDF (the signed copy keeps its keywords; a different contract or version has another code).
 */
export async function generaContratto(q: QuotazionePerContratto, versione: number, oggi = new Date(), codice?: string): Promise<Buffer> {
  // Loaded on the first PDF: the package costs a tenth of the server's start-up otherwise.
  const { PDFDocument, StandardFonts, rgb } = await import('pdf-lib');
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  let page: PDFPage = pdf.addPage([595, 842]);
  let y = 790;
  const line = (text: string, options: { f?: PDFFont; size?: number; x?: number; color?: ReturnType<typeof rgb> } = {}) => {
    if (y < 60) {
      page = pdf.addPage([595, 842]);
      y = 790;
    }
    page.drawText(printable(text), { x: options.x ?? 50, y, size: options.size ?? 10, font: options.f ?? font, color: options.color ?? rgb(0, 0, 0), maxWidth: 495 });
    y -= (options.size ?? 10) + 6;
  };
  const contraente = q.rsoc?.trim() || `${q.cognome ?? ''} ${q.nome ?? ''}`.trim();
  const premio = q.premio_forzato ?? q.premio ?? 0;
  const totale = fromCents(toCents(premio) + toCents(q.competenze ?? 0));
  line('Polizza RCA Auto Storiche', { f: bold, size: 18, color: rgb(0.1, 0.2, 0.5) });
  line(`Contratto di assicurazione - quotazione n. ${q.id} - versione ${versione}`, { size: 11 });
  line(`Generato il ${oggi.toLocaleDateString('it-IT', { timeZone: 'Europe/Rome' })} (ambiente di prova della compagnia)`, { size: 9, color: rgb(0.4, 0.4, 0.4) });
  y -= 10;
  line('Contraente', { f: bold, size: 12 });
  line(`Nome: ${contraente}`);
  if (q.cfisc) line(`Codice fiscale: ${q.cfisc}`);
  if (q.piva) line(`Partita IVA: ${q.piva}`);
  const indirizzo = [q.residenzaIndirizzo, q.residenzaCivico].filter(Boolean).join(' ');
  if (indirizzo) line(`Residenza: ${indirizzo} ${q.residenzaCap ?? ''} ${q.provincia_codice ? `(${q.provincia_codice})` : ''}`);
  if (q.email) line(`Email: ${q.email}`);
  if (q.telefono) line(`Telefono: ${q.telefono}`);
  y -= 6;
  line('Dati di polizza', { f: bold, size: 12 });
  if (q.verti_policy_number) line(`Numero polizza: ${q.verti_policy_number}`);
  line(`Decorrenza: ${q.decorrenza ? q.decorrenza.split('-').reverse().join('/') : 'da definire'} (dalle ore 24 del giorno di pagamento)`);
  line(`Premio compagnia: ${formatEuro(premio)}`);
  line(`Competenze: ${formatEuro(q.competenze ?? 0)}`);
  line(`Totale da pagare: ${formatEuro(totale)}`, { f: bold });
  y -= 6;
  line('Veicoli storici assicurati', { f: bold, size: 12 });
  const storici = q.veicoli_storici ?? [];
  if (!storici.length) line('Nessun veicolo indicato.');
  storici.forEach((v, i) => line(`${i + 1}. ${v.marca ?? ''} ${v.modello ?? ''} (${v.anno ?? ''}) - targa ${v.targa || 'da indicare'} - valore ${formatEuro(v.valore ?? 0)}${v.furto ? ' - garanzia furto' : ''}`));
  const moderni = q.veicoli_moderni ?? [];
  if (moderni.length) {
    y -= 6;
    line('Veicoli di uso quotidiano dichiarati', { f: bold, size: 12 });
    moderni.forEach((v, i) => line(`${i + 1}. ${[v.marca, v.modello].filter(Boolean).join(' ')} targa ${v.targa ?? ''}`));
  }
  y -= 16;
  line('Il contraente dichiara di aver ricevuto il set informativo, il DIP e il DIP aggiuntivo prima della sottoscrizione.', { size: 9 });
  y -= 30;
  line('Firma del contraente ______________________________', { size: 11 });
  if (codice) {
    for (const p of pdf.getPages()) p.drawText(printable(`Codice contratto: ${codice}`), { x: 50, y: 30, size: 8, font, color: rgb(0.4, 0.4, 0.4) });
    pdf.setKeywords([codice]);
  }
  pdf.setTitle(`Contratto quotazione ${q.id} v${versione}`);
  pdf.setSubject(`Polizza RCA Auto Storiche${q.verti_policy_number ? ` n. ${q.verti_policy_number}` : ''}`);
  pdf.setProducer('Broker Back Office - compagnia sandbox');
  pdf.setCreationDate(oggi);
  return Buffer.from(await pdf.save());
}
