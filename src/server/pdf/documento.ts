// A plain printable document (receipts, statements): title lines, label/value blocks and tables, A4, pdf-lib standard fonts.
import type { PDFFont, PDFPage } from 'pdf-lib';

export interface Colonna {
  titolo: string;
  /** Width in points; the columns of a table should add up to at most 495. */
  larghezza: number;
  destra?: boolean;
}

export type Blocco =
  | { tipo: 'titolo'; testo: string }
  | { tipo: 'testo'; testo: string; piccolo?: boolean }
  | { tipo: 'campi'; campi: Array<[string, string]> }
  | { tipo: 'tabella'; colonne: Colonna[]; righe: string[][]; totale?: string[] }
  | { tipo: 'spazio' };

// The standard fonts encode WinAnsi: anything else would make pdf-lib throw, so it is replaced.
const printable = (value: unknown) => String(value ?? '').normalize('NFC').replace(/[\u202f\u2009]/g, ' ').replace(/[^\x20-\x7e\u00a0-\u00ff€]/g, '?');

const [WIDTH, HEIGHT, MARGIN] = [595, 842, 50];

export async function documentoPdf(intestazione: string, blocchi: Blocco[]): Promise<Buffer> {
  // Loaded on the first PDF: the package costs a tenth of the server's start-up otherwise.
  const { PDFDocument, StandardFonts, rgb } = await import('pdf-lib');
  const pdf = await PDFDocument.create();
  pdf.setTitle(printable(intestazione));
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  let page: PDFPage = pdf.addPage([WIDTH, HEIGHT]);
  let y = HEIGHT - MARGIN;
  const room = (needed: number) => {
    if (y - needed >= MARGIN) return;
    page = pdf.addPage([WIDTH, HEIGHT]);
    y = HEIGHT - MARGIN;
  };
  const fit = (text: string, f: PDFFont, size: number, width: number) => {
    let t = printable(text);
    while (t.length > 1 && f.widthOfTextAtSize(t, size) > width - 4) t = t.slice(0, -2) + '.';
    return t;
  };
  const write = (text: string, x: number, f: PDFFont, size: number, color = rgb(0, 0, 0)) =>
    page.drawText(printable(text), { x, y, size, font: f, color, maxWidth: WIDTH - MARGIN - x });
  const row = (cells: string[], colonne: Colonna[], f: PDFFont, size = 8) => {
    room(size + 6);
    let x = MARGIN;
    cells.forEach((cell, i) => {
      const c = colonne[i]!;
      const text = fit(cell, f, size, c.larghezza);
      const at = c.destra ? x + c.larghezza - 2 - f.widthOfTextAtSize(text, size) : x;
      page.drawText(text, { x: at, y, size, font: f });
      x += c.larghezza;
    });
    y -= size + 5;
  };
  room(20);
  write(intestazione, MARGIN, bold, 16, rgb(0.1, 0.2, 0.5));
  y -= 24;
  for (const b of blocchi) {
    if (b.tipo === 'spazio') y -= 8;
    else if (b.tipo === 'titolo') {
      room(30);
      y -= 4;
      write(b.testo, MARGIN, bold, 12);
      y -= 18;
    } else if (b.tipo === 'testo') {
      room(14);
      write(b.testo, MARGIN, font, b.piccolo ? 8 : 10, b.piccolo ? rgb(0.4, 0.4, 0.4) : rgb(0, 0, 0));
      y -= b.piccolo ? 12 : 15;
    } else if (b.tipo === 'campi') {
      for (const [label, value] of b.campi) {
        room(15);
        write(label, MARGIN, bold, 10);
        write(value, MARGIN + 150, font, 10);
        y -= 15;
      }
    } else {
      row(b.colonne.map((c) => c.titolo), b.colonne, bold);
      page.drawLine({ start: { x: MARGIN, y: y + 10 }, end: { x: WIDTH - MARGIN, y: y + 10 }, thickness: 0.5 });
      for (const r of b.righe) row(r, b.colonne, font);
      if (b.totale) {
        page.drawLine({ start: { x: MARGIN, y: y + 10 }, end: { x: WIDTH - MARGIN, y: y + 10 }, thickness: 0.5 });
        row(b.totale, b.colonne, bold);
      }
      y -= 6;
    }
  }
  return Buffer.from(await pdf.save());
}
