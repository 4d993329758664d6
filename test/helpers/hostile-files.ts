// Hostile spreadsheets for the import limits, built here rather than shipped: ZIP bombs (an XLSX
// whose sheet inflates to a gigabyte, honestly declared or lying about its size), sheets that name
// far-away cells, and CSVs over the row and cell limits.
import { constants, createDeflateRaw } from 'node:zlib';
import { strToU8, zipSync } from 'fflate';

const CONTENT_TYPES =
  '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
  '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/>' +
  '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>' +
  '<Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/></Types>';
const RELS =
  '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
  '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>';
const WORKBOOK =
  '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships">' +
  '<sheets><sheet name="Sheet1" sheetId="1" r:id="rId1"/></sheets></workbook>';
const WORKBOOK_RELS =
  '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
  '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/></Relationships>';
const SHEET_HEAD =
  '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>';
const SHEET_TAIL = '</sheetData></worksheet>';

/** A one-sheet workbook whose sheet XML is given as text (small sheets). */
export function workbookWithSheet(sheetXml: string): Uint8Array {
  return zipSync({
    '[Content_Types].xml': strToU8(CONTENT_TYPES),
    '_rels/.rels': strToU8(RELS),
    'xl/workbook.xml': strToU8(WORKBOOK),
    'xl/_rels/workbook.xml.rels': strToU8(WORKBOOK_RELS),
    'xl/worksheets/sheet1.xml': strToU8(SHEET_HEAD + sheetXml + SHEET_TAIL),
  });
}

function u16(n: number) {
  const b = Buffer.alloc(2);
  b.writeUInt16LE(n);
  return b;
}
function u32(n: number) {
  const b = Buffer.alloc(4);
  b.writeUInt32LE(n >>> 0);
  return b;
}

interface RawEntry {
  name: string;
  method: 0 | 8;
  data: Buffer;
  size: number;
}

/** A ZIP written by hand, so that a bomb's declared sizes can be whatever the test says (CRCs are zero: nothing reads that far). */
function zipByHand(entries: RawEntry[]): Uint8Array {
  const parts: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const e of entries) {
    const name = Buffer.from(e.name);
    const local = Buffer.concat([
      u32(0x04034b50),
      u16(20),
      u16(0),
      u16(e.method),
      u16(0),
      u16(0x21),
      u32(0),
      u32(e.data.length),
      u32(e.size),
      u16(name.length),
      u16(0),
      name,
    ]);
    central.push(
      Buffer.concat([
        u32(0x02014b50),
        u16(20),
        u16(20),
        u16(0),
        u16(e.method),
        u16(0),
        u16(0x21),
        u32(0),
        u32(e.data.length),
        u32(e.size),
        u16(name.length),
        u16(0),
        u16(0),
        u16(0),
        u16(0),
        u32(0),
        u32(offset),
        name,
      ]),
    );
    parts.push(local, e.data);
    offset += local.length + e.data.length;
  }
  const cd = Buffer.concat(central);
  const end = Buffer.concat([u32(0x06054b50), u16(0), u16(0), u16(entries.length), u16(entries.length), u32(cd.length), u32(offset), u16(0)]);
  return new Uint8Array(Buffer.concat([...parts, cd, end]));
}

/**
 * An XLSX whose sheet inflates to `mb` megabytes (spaces between its tags), deflated at the highest
 * ratio (~1 MB of file per GB). `declare`: the size its headers state ('honest', or a lie of 100 bytes).
 */
export async function zipBombXlsx(mb: number, declare: 'honest' | 'lie' = 'honest'): Promise<Uint8Array> {
  const deflate = createDeflateRaw({ level: 9, strategy: constants.Z_DEFAULT_STRATEGY });
  const out: Buffer[] = [];
  deflate.on('data', (c: Buffer) => out.push(c));
  const done = new Promise<void>((resolve, reject) => {
    deflate.on('end', resolve);
    deflate.on('error', reject);
  });
  const spaces = Buffer.alloc(1024 * 1024, 0x20);
  deflate.write(SHEET_HEAD);
  for (let i = 0; i < mb; i++) {
    if (!deflate.write(spaces)) await new Promise((resolve) => deflate.once('drain', resolve));
  }
  deflate.end(SHEET_TAIL);
  await done;
  const size = SHEET_HEAD.length + mb * spaces.length + SHEET_TAIL.length;
  const stored = (name: string, text: string): RawEntry => ({ name, method: 0, data: Buffer.from(text), size: Buffer.byteLength(text) });
  return zipByHand([
    stored('[Content_Types].xml', CONTENT_TYPES),
    stored('_rels/.rels', RELS),
    stored('xl/workbook.xml', WORKBOOK),
    stored('xl/_rels/workbook.xml.rels', WORKBOOK_RELS),
    { name: 'xl/worksheets/sheet1.xml', method: 8, data: Buffer.concat(out), size: declare === 'honest' ? Math.min(size, 0xffffffff) : 100 },
  ]);
}

/** A CSV of `rows` data rows of about `rowBytes` bytes each (mobile, name, order, a note). */
export function bigCsv(rows: number, rowBytes = 140): Uint8Array {
  const lines = ['手机,姓名,订单号,备注'];
  const note = 'x'.repeat(Math.max(1, rowBytes - 40));
  for (let i = 0; i < rows; i++) lines.push(`138${String(i % 100_000_000).padStart(8, '0')},客户${i % 1000},A${i},${note}`);
  return new TextEncoder().encode(`${lines.join('\n')}\n`);
}
