// The lists' XLSX writer: what it writes is what a spreadsheet reads back (exceljs as the reader): texts with the
// characters XML reserves or cannot hold, numbers, money, days and moments with their formats, empty cells, many rows.
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { writeXlsx, type XlsxValue } from '../../src/server/resources/xlsx.ts';

async function workbookOf(rows: XlsxValue[][], batches = 1): Promise<ExcelJS.Worksheet> {
  const chunks: Buffer[] = [];
  const sheet = {
    title: 'Clienti: 2026/11',
    columns: [
      { header: 'Nome & <cognome>', format: undefined, width: 20 },
      { header: 'Premio', format: 'money' as const, width: 12 },
      { header: 'Nato il', format: 'date' as const, width: 12 },
      { header: 'Aggiornato', format: 'datetime' as const, width: 16 },
      { header: 'Rate', format: undefined, width: 8 },
    ],
  };
  await writeXlsx(async (chunk) => void chunks.push(chunk), sheet, async (add) => {
    const size = Math.ceil(rows.length / batches);
    for (let i = 0; i < rows.length; i += size) await add(rows.slice(i, i + size));
  });
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(Buffer.concat(chunks) as unknown as ArrayBuffer);
  return workbook.worksheets[0]!;
}

describe('xlsx writer', () => {
  it('writes the header bold, texts, money, days and moments with their formats, and leaves empty cells empty', async () => {
    const day = new Date(Date.UTC(1970, 2, 3));
    const moment = new Date(Date.UTC(2026, 10, 27, 14, 30));
    const sheet = await workbookOf([
      ['ROSSI "MARIO" & <figli>', 1234.5, day, moment, 12],
      ['Niccolò\u0000\u0007 tab\tfine', null, null, null, -3.25],
    ]);
    expect(sheet.name).toBe('Clienti  2026 11');
    expect(sheet.getRow(1).values).toEqual([undefined, 'Nome & <cognome>', 'Premio', 'Nato il', 'Aggiornato', 'Rate']);
    expect(sheet.getCell('A1').font?.bold).toBe(true);
    expect(sheet.getCell('A2').value).toBe('ROSSI "MARIO" & <figli>');
    expect(sheet.getCell('B2').value).toBe(1234.5);
    expect(sheet.getCell('B2').numFmt).toBe('#,##0.00 [$€-it-IT]');
    expect(sheet.getCell('C2').value).toEqual(day);
    expect(sheet.getCell('C2').numFmt).toBe('dd/mm/yyyy');
    expect((sheet.getCell('D2').value as Date).getTime()).toBeCloseTo(moment.getTime(), -2);
    expect(sheet.getCell('D2').numFmt).toBe('dd/mm/yyyy hh:mm');
    expect(sheet.getCell('A3').value).toBe('Niccolò tab\tfine');
    expect(sheet.getCell('B3').value).toBeNull();
    expect(sheet.getCell('E3').value).toBe(-3.25);
  });

  it('keeps every row, in order, whatever the batches', async () => {
    const rows: XlsxValue[][] = Array.from({ length: 5000 }, (_, i) => [`cliente ${i}`, i * 100, null, null, i]);
    const sheet = await workbookOf(rows, 7);
    expect(sheet.rowCount).toBe(5001);
    expect(sheet.getCell('A5001').value).toBe('cliente 4999');
    expect(sheet.getCell('E2501').value).toBe(2499);
  });
});
