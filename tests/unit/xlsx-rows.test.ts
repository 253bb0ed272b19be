// The XLSX import's sheet reader: values as the user typed them, from files written by a spreadsheet library and by hand.
import { describe, expect, it } from 'vitest';
import { PassThrough } from 'node:stream';
import ExcelJS from 'exceljs';
import { XlsxBoundsError } from '../../src/server/domains/autostoriche/xlsx-bounds.ts';
import { xlsxSheetRows } from '../../src/server/domains/autostoriche/xlsx-rows.ts';
import { zip } from './support/zip.ts';

async function rows(file: Buffer, maxText?: number): Promise<Array<[number, unknown[]]>> {
  const out: Array<[number, unknown[]]> = [];
  for await (const { row, cells } of xlsxSheetRows(file, maxText)) out.push([row, cells]);
  return out;
}

const xml = (text: string) => [Buffer.from(text)];
const MAIN = 'xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"';
const RELS = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';

describe('xlsxSheetRows', () => {
  it('reads what exceljs writes: shared and rich text, formulas by their result, booleans, errors, gaps', async () => {
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('Modelli');
    sheet.addRow(['Marca', 'Modello', 'Anno']);
    sheet.addRow(['Citroën & C. <SA>', { richText: [{ text: 'Giulia ' }, { font: { bold: true }, text: 'Sprint' }] }, 1962]);
    sheet.getCell('A3').value = { formula: 'A2', result: 'Fiat' };
    sheet.getCell('C3').value = { formula: '1960+5', result: 1965 };
    sheet.getCell('D3').value = true;
    sheet.getCell('E3').value = { error: '#N/A' };
    workbook.addWorksheet('Altro').addRow(['non letto']);
    const file = Buffer.from(await workbook.xlsx.writeBuffer());
    expect(await rows(file)).toEqual([
      [1, ['Marca', 'Modello', 'Anno']],
      [2, ['Citroën & C. <SA>', 'Giulia Sprint', 1962]],
      [3, ['Fiat', null, 1965, true, '#N/A']],
    ]);
  });

  it('reads a long sheet streamed by exceljs, its strings stored after it, tags cut across inflated chunks', async () => {
    const out = new PassThrough();
    const chunks: Buffer[] = [];
    out.on('data', (c: Buffer) => chunks.push(c));
    const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useSharedStrings: true, useStyles: false });
    const sheet = workbook.addWorksheet('Modelli');
    for (let i = 1; i <= 3000; i++) sheet.addRow([`Marca ${i % 7}`, `Modello «${i}»`, i * 1.5, i % 3 ? null : 'x']).commit();
    sheet.commit();
    await workbook.commit();
    const read = await rows(Buffer.concat(chunks));
    expect(read).toHaveLength(3000);
    expect(read[2998]).toEqual([2999, ['Marca 3', 'Modello «2999»', 4498.5]]);
    expect(read[2999]).toEqual([3000, ['Marca 4', 'Modello «3000»', 4500, 'x']]);
  });

  it('takes the first sheet of the workbook, prefixed XML, inline strings, cells without references, escapes', async () => {
    const file = await zip([
      { name: 'xl/workbook.xml', parts: xml(`<?xml version="1.0"?><x:workbook xmlns:x="main" xmlns:r="${RELS}"><x:sheets>`
        + '<x:sheet name="Primo" sheetId="2" r:id="rId7"/><x:sheet name="Secondo" sheetId="1" r:id="rId1"/></x:sheets></x:workbook>') },
      { name: 'xl/_rels/workbook.xml.rels', parts: xml('<Relationships><Relationship Id="rId1" Type="t/worksheet" Target="worksheets/sheet1.xml"/>'
        + '<Relationship Id="rId7" Type="t/worksheet" Target="/xl/worksheets/sheet2.xml"/><Relationship Id="rId3" Type="t/sharedStrings" Target="stringhe.xml"/></Relationships>') },
      { name: 'xl/worksheets/sheet1.xml', parts: xml(`<worksheet ${MAIN}><sheetData><row r="1"><c r="A1"><v>1</v></c></row></sheetData></worksheet>`) },
      { name: 'xl/worksheets/sheet2.xml', parts: xml(`<x:worksheet xmlns:x="main"><x:sheetData>
        <x:row r="1"><x:c r="A1" t="s"><x:v>0</x:v></x:c><x:c t="s"><x:v>1</x:v></x:c><x:c r="D1" t="inlineStr"><x:is><x:r><x:t>Anno</x:t></x:r><x:r><x:t xml:space="preserve"> da</x:t></x:r></x:is></x:c></x:row>
        <x:row><x:c r="A2" t="str"><x:f>UPPER("fiat")</x:f><x:v>FIAT</x:v></x:c><x:c r="B2" t="s"><x:v>2</x:v></x:c><x:c r="C2"/><x:c r="D2"><x:v>1.96E3</x:v></x:c></x:row>
        <x:row r="5"><x:c r="B5" t="inlineStr"><x:is><x:t><![CDATA[<500> & co]]></x:t></x:is></x:c><x:c r="C5" t="b"><x:v>0</x:v></x:c></x:row>
        <x:row r="6"/></x:sheetData></x:worksheet>`) },
      // After the sheets, with a phonetic guide that is not part of the text.
      { name: 'xl/stringhe.xml', parts: xml(`<sst ${MAIN}><si><t>Marca</t></si><si><t>Modello</t><rPh sb="0" eb="1"><t>もでる</t></rPh></si>`
        + '<si><r><t>Riga&#233;_x000D_</t></r><r><rPr><b/></rPr><t>&amp;due</t></r></si></sst>') },
    ]);
    expect(await rows(file)).toEqual([
      [1, ['Marca', 'Modello', null, 'Anno da']],
      [2, ['FIAT', 'Rigaé\r&due', null, 1960]],
      [5, [null, '<500> & co', false]],
      [6, []],
    ]);
  });

  it('throws on what it cannot read', async () => {
    const sheet = (body: string) => zip([{ name: 'xl/worksheets/sheet1.xml', parts: xml(body) }]);
    await expect(rows(await sheet('<worksheet><sheetData><row r="1"><c r="A1"><v>1</v></c></row></sheetData></worksheet>'))).resolves.toEqual([[1, [1]]]);
    await expect(rows(await sheet('<worksheet><sheetData><row r="1"><c r="A1"'))).rejects.toThrow();
    await expect(rows(await zip([{ name: 'xl/sharedStrings.xml', parts: xml('<sst/>') }]))).rejects.toThrow('no worksheet');
    await expect(rows(Buffer.from('PK\u0003\u0004 not really a zip'))).rejects.toThrow();
  });

  it('counts a shared string at every cell that uses it, empty cells and rows too, and stops past the bound', async () => {
    const strings = { name: 'xl/sharedStrings.xml', parts: xml(`<sst ${MAIN}><si><t>${'L'.repeat(100)}</t></si></sst>`) };
    const sheet = (body: string) => zip([strings, { name: 'xl/worksheets/sheet1.xml', parts: xml(`<worksheet ${MAIN}><sheetData>${body}</sheetData></worksheet>`) }]);
    // Ten references to one 100-character string: 10 × 101 + 10 rows = 1020.
    const tenRows = await sheet('<row><c t="s"><v>0</v></c></row>'.repeat(10));
    await expect(rows(tenRows, 1020)).resolves.toHaveLength(10);
    await expect(rows(tenRows, 1019)).rejects.toBeInstanceOf(XlsxBoundsError);
    await expect(rows(await sheet('<row/>'.repeat(50)), 49)).rejects.toBeInstanceOf(XlsxBoundsError);
    await expect(rows(await sheet('<row><c/><c/><c/></row>'.repeat(20)), 79)).rejects.toBeInstanceOf(XlsxBoundsError);
    // A reference past Excel's last column would pad a row with millions of empty cells.
    await expect(rows(await sheet('<row><c r="XFD1"><v>1</v></c></row>'))).resolves.toEqual([[1, [...Array(16_383).fill(null), 1]]]);
    await expect(rows(await sheet('<row><c r="ZZZZZZ1"><v>1</v></c></row>'))).rejects.toThrow(/column/);
  });
});
