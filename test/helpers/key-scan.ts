// A key scan: every way a backend (or an export) can write an API key, searched for in bytes (files of a
// data directory, exports). Used after the capture tests: none of these may be found anywhere.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { unpack } from '../../main/store/exchange-pack';

const hex = (b: number) => b.toString(16).padStart(2, '0');
const UNRESERVED = /[A-Za-z0-9_.~-]/;

/** Percent-encoding of every byte but the unreserved ones (as Python's quote_plus writes), `+` for a space when asked. */
function percent(key: string, opts: { upper: boolean; plus: boolean; all?: boolean }): string {
  let out = '';
  for (const ch of key) {
    if (ch === ' ' && opts.plus) out += '+';
    else if (!opts.all && UNRESERVED.test(ch)) out += ch;
    else for (const b of Buffer.from(ch, 'utf8')) out += `%${opts.upper ? hex(b).toUpperCase() : hex(b)}`;
  }
  return out;
}

/** Every character as a JSON \u escape (as some JSON writers do for all non-ASCII, here for all). */
function unicodeEscapes(key: string, upper: boolean): string {
  let out = '';
  for (let i = 0; i < key.length; i++) {
    const h = key.charCodeAt(i).toString(16).padStart(4, '0');
    out += `\\u${upper ? h.toUpperCase() : h}`;
  }
  return out;
}

/** The base64 characters made only of the key's bits, for each alignment of its first byte (the key inside a longer value). */
function base64Cores(key: string): string[] {
  const bytes = Buffer.from(key, 'utf8');
  const out: string[] = [];
  for (let offset = 0; offset < 3; offset++) {
    const b64 = Buffer.concat([Buffer.alloc(offset), bytes]).toString('base64');
    out.push(b64.slice(Math.ceil((8 * offset) / 6), Math.floor((8 * (offset + bytes.length)) / 6)));
  }
  return out;
}

/** The key as each encoding writes it, by name. */
export function keyEncodings(key: string): Array<{ name: string; text: string }> {
  const b64 = Buffer.from(key, 'utf8').toString('base64');
  const b64url = Buffer.from(key, 'utf8').toString('base64url');
  const json = JSON.stringify(key).slice(1, -1);
  const list: Array<{ name: string; text: string }> = [
    { name: 'plain', text: key },
    { name: 'json', text: json },
    { name: 'json-in-json', text: JSON.stringify(json).slice(1, -1) },
    { name: 'json-slash', text: json.replace(/\//g, '\\/') },
    { name: 'encodeURIComponent', text: encodeURIComponent(key) },
    { name: 'percent-lower', text: encodeURIComponent(key).replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase()) },
    { name: 'quote_plus', text: percent(key, { upper: true, plus: true }) },
    { name: 'quote_plus-lower', text: percent(key, { upper: false, plus: true }) },
    { name: 'percent-every-byte', text: percent(key, { upper: true, plus: false, all: true }) },
    { name: 'percent-every-byte-lower', text: percent(key, { upper: false, plus: false, all: true }) },
    { name: 'form', text: new URLSearchParams({ k: key }).toString().slice(2) },
    { name: 'json-unicode-escapes', text: unicodeEscapes(key, false) },
    { name: 'json-unicode-escapes-upper', text: unicodeEscapes(key, true) },
    { name: 'base64', text: b64 },
    { name: 'base64-unpadded', text: b64.replace(/=+$/, '') },
    { name: 'base64url', text: b64url },
  ];
  base64Cores(key).forEach((core, i) => {
    list.push({ name: `base64-inside-${i}`, text: core });
    list.push({ name: `base64url-inside-${i}`, text: core.replace(/\+/g, '-').replace(/\//g, '_') });
  });
  return list;
}

/** The names of the encodings of `key` found in `haystack` (empty when none). */
export function findKey(haystack: Buffer | string, key: string): string[] {
  const bytes = typeof haystack === 'string' ? Buffer.from(haystack, 'utf8') : haystack;
  return keyEncodings(key)
    .filter(({ text }) => bytes.includes(Buffer.from(text, 'utf8')))
    .map(({ name }) => name);
}

/** Every file under `dir` (the database, its -wal and -shm, logs) where an encoding of `key` is found, with the encodings. */
export function scanDirectory(dir: string, key: string): Array<{ file: string; found: string[] }> {
  const out: Array<{ file: string; found: string[] }> = [];
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const path = join(d, name);
      if (statSync(path).isDirectory()) walk(path);
      else {
        const bytes = readFileSync(path);
        const found = findKey(bytes, key);
        if (found.length) out.push({ file: path, found });
        // Exchanges are stored deflated (migration 0020): their text is searched unpacked too.
        if (bytes.subarray(0, 16).toString('latin1') === 'SQLite format 3\0') {
          for (const { id, text } of packedExchanges(path)) {
            const inside = findKey(text, key);
            if (inside.length) out.push({ file: `${path} (exchange ${id}, unpacked)`, found: inside });
          }
        }
      }
    }
  };
  walk(dir);
  return out;
}

/** The unpacked text of every packed exchange of a database file (and its WAL), read without writing. */
function packedExchanges(file: string): Array<{ id: number; text: string }> {
  const db = new BetterSqlite3(file, { readonly: true, fileMustExist: true });
  try {
    const hasPacked = (db.prepare("SELECT count(*) AS n FROM pragma_table_info('exchanges') WHERE name = 'packed'").get() as { n: number }).n > 0;
    if (!hasPacked) return [];
    const rows = db.prepare('SELECT id, packed FROM exchanges WHERE packed IS NOT NULL').all() as { id: number; packed: Buffer }[];
    return rows.map((r) => ({ id: r.id, text: JSON.stringify(unpack(db, r.packed)) }));
  } finally {
    db.close();
  }
}
