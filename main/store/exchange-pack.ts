import { constants, crc32, deflateRawSync, inflateRawSync } from 'node:zlib';
import type { Database, Statement } from 'better-sqlite3';
import { indexWords } from './words';

// How an exchange's text is kept small (issue 27, migration 0020). An exchange's URL, headers, bodies,
// status text, error message, timings and capture record are kept together in `exchanges.packed`:
// one byte of format (1), the id of a dictionary (a varint), its CRC-32 (4 bytes), then the parts as
// a JSON array, deflated with that dictionary. Exchanges repeat one another (the same header sets,
// the same reply shapes, the same smsid in a call's send and polls), so a dictionary made of the
// store's own recent exchanges takes a status poll of ~630 bytes to ~60.
//
// Dictionaries live in the store (`exchange_dicts`) and are never changed: a row names the one it
// was packed with (and `exchanges.dict_id` too, which counts its rows), so the file reads back on its
// own. The first is SEED below; once TRAIN_AFTER exchanges exist, one is made from the newest of
// them, and again every RETRAIN_EVERY. Retention deletes a dictionary no row needs any more.
//
// The columns the parts came from are kept (url, request_headers and timings as '', the others
// NULL): a row is packed or it is not, and both read back the same (unpackRow). SQL reads a packed
// exchange's text through `callout_exchange_text` (registered on every connection by openDatabase),
// which the search index's triggers and its view use; the search checks the text in JS (textMatcher).
//
// A call's status polls repeat one another far more than they repeat the store: the same smsid,
// times and reply, a field or two changed (migration 0026). So a poll of a message is packed in
// format 2: the same, with the message's id and the CRC-32 of its *base* after the dictionary's,
// deflated with the dictionary's newest 8 KB followed by the base. The base is the text of the
// message's first poll, kept packed (format 1) in `exchange_bases` while any exchange of the
// message is kept. A poll then takes about 35 bytes instead of 90.

/** The columns kept in `packed`, in the order of its JSON array. */
export const PACKED_COLUMNS = [
  'url',
  'request_headers',
  'request_body',
  'status_text',
  'response_headers',
  'response_body',
  'error_message',
  'timings',
  'capture',
] as const;
export type PackedColumn = (typeof PACKED_COLUMNS)[number];
export type PackedParts = Record<PackedColumn, string | null>;

const FORMAT = 1;
/** A status poll packed against its message's base (migration 0026). */
const FORMAT_BASED = 2;
/** Deflate's window: a longer dictionary is not used. */
const DICTIONARY_BYTES = 32 * 1024;
/** A dictionary is made from the newest exchanges once this many exist after the last one was made. */
export const TRAIN_AFTER = 200;
export const RETRAIN_EVERY = 200_000;
/** How many of the newest exchanges a dictionary is made from (at most DICTIONARY_BYTES of them). */
const TRAIN_SAMPLE = 400;

/**
 * The first dictionary of a store: the shapes of the built-in dialects' requests and replies, so
 * the first exchanges of a new store are small too. Stored in the database when first used: changing
 * it here changes only stores made afterwards.
 */
const SEED = [
  [
    'http://127.0.0.1/voice/vm',
    '[["Content-Type","application/json; charset=utf-8"],["Accept","application/json"],["Host","127.0.0.1"],["Content-Length","164"],["Connection","close"]]',
    '{"account":"","password":"[REDACTED]","mobile":"138","content":"您好，您的订单已发货，请注意查收。","format":"json"}',
    'OK',
    '[["Date","Sat, 28 Nov 2026 06:42:29 GMT"],["Content-Type","application/json; charset=utf-8"],["Content-Length","69"],["Connection","close"]]',
    '{"code":2,"msg":"提交成功","smsid":"","count":1}',
    null,
    '{"dnsMs":null,"connectMs":0.49,"tlsMs":null,"firstByteMs":1,"totalMs":1.08}',
    null,
  ],
  [
    'http://127.0.0.1/voice/status',
    '[["Content-Type","application/x-www-form-urlencoded"],["Accept","application/json"],["Host","127.0.0.1"],["Content-Length","86"],["Connection","close"]]',
    'account=&password=[REDACTED]&smsid=&format=json',
    'OK',
    '[["Date","Sat, 28 Nov 2026 06:42:29 GMT"],["Content-Type","application/json; charset=utf-8"],["Content-Length","236"],["Connection","close"]]',
    '{"code":2,"msg":"查询成功","smsid":"","state":"calling","status":"呼叫中","duration":0,"attempts":1,"submittedAt":"2026-11-28T06:42:29.402Z","calledAt":"2026-11-28T06:42:30.402Z","answeredAt":null,"endedAt":null}',
    null,
    '{"dnsMs":null,"connectMs":0.49,"tlsMs":null,"firstByteMs":1,"totalMs":1.08}',
    null,
  ],
  [
    'http://127.0.0.1/voice/balance',
    '[["Content-Type","text/xml"],["Accept","application/xml"],["Host","127.0.0.1"]]',
    '<?xml version="1.0" encoding="utf-8"?><SubmitResult><code>2</code><msg>查询成功</msg><smsid></smsid><state>answered</state><status>已接听</status></SubmitResult>',
    'Bad Request',
    null,
    null,
    'timeout',
    '{"dnsMs":null,"connectMs":null,"tlsMs":null,"firstByteMs":null,"totalMs":5000}',
    null,
  ],
]
  .map((parts) => JSON.stringify(parts))
  .join('\n');

interface Dictionary {
  id: number;
  data: Buffer;
  /** CRC-32 of `data`: a packed row names it too, so a row never inflates with another dictionary. */
  crc: number;
  /** The newest exchange's id when it was made. */
  afterExchange: number;
  /** SEED (made before the store had exchanges to learn from), or made from its exchanges. */
  kind: 'seed' | 'trained';
}

/**
 * A connection's copy of the store's dictionaries. Each refresh makes it what the file holds in the
 * current snapshot (the table is small: one row per 200,000 exchanges): a dictionary another process
 * made is read, and one this connection made in a transaction that was rolled back is dropped, so
 * that no row is ever packed with a dictionary the file does not keep.
 */
class Dictionaries {
  readonly byId = new Map<number, Dictionary>();
  private list: Statement | null = null;
  private one: Statement | null = null;
  private newestExchangeStmt: Statement | null = null;

  newestExchange(db: Database): number {
    this.newestExchangeStmt ??= db.prepare('SELECT max(id) AS id FROM exchanges');
    return (this.newestExchangeStmt.get() as { id: number | null }).id ?? 0;
  }

  get newest(): Dictionary | null {
    let newest: Dictionary | null = null;
    for (const d of this.byId.values()) if (!newest || d.id > newest.id) newest = d;
    return newest;
  }

  refresh(db: Database): void {
    let rows: { id: number; crc: number }[];
    try {
      this.list ??= db.prepare('SELECT id, crc FROM exchange_dicts');
      this.one ??= db.prepare('SELECT id, data, crc, after_exchange, kind FROM exchange_dicts WHERE id = ?');
      rows = this.list.all() as typeof rows;
    } catch (error) {
      if (/no such table|no such column/.test((error as Error).message)) return; // a schema before migration 0020
      throw error;
    }
    const inFile = new Map(rows.map((r) => [r.id, r.crc]));
    for (const [id, d] of this.byId) if (inFile.get(id) !== d.crc) this.byId.delete(id);
    for (const r of rows) {
      if (this.byId.has(r.id)) continue;
      const d = this.one.get(r.id) as { id: number; data: Buffer; crc: number; after_exchange: number; kind: Dictionary['kind'] };
      this.byId.set(d.id, { id: d.id, data: d.data, crc: d.crc, afterExchange: d.after_exchange, kind: d.kind });
    }
  }

  add(d: Dictionary): void {
    this.byId.set(d.id, d);
  }
}

const registry = new WeakMap<Database, Dictionaries>();

function dictionariesOf(db: Database): Dictionaries {
  let d = registry.get(db);
  if (!d) registry.set(db, (d = new Dictionaries()));
  return d;
}

/**
 * Reads dictionaries another process made. Called first in a transaction whose statements read
 * packed text in SQL (a search, a deletion), so that they see the same snapshot.
 */
export function refreshDictionaries(db: Database): void {
  dictionariesOf(db).refresh(db);
}

function writeVarint(n: number): number[] {
  const out: number[] = [];
  do {
    let b = n % 128;
    n = Math.floor(n / 128);
    if (n > 0) b |= 128;
    out.push(b);
  } while (n > 0);
  return out;
}

function readVarint(buf: Uint8Array, at: number): [value: number, next: number] {
  let value = 0;
  let scale = 1;
  for (let i = at; i < buf.length; i++) {
    const b = buf[i]!;
    value += (b & 127) * scale;
    if (b < 128) return [value, i + 1];
    scale *= 128;
  }
  throw new Error('callout: a packed exchange is cut short');
}

function encode(parts: PackedParts): Buffer {
  return Buffer.from(JSON.stringify(PACKED_COLUMNS.map((c) => parts[c])));
}

function crcBytes(crc: number): Buffer {
  const b = Buffer.alloc(4);
  b.writeUInt32LE(crc);
  return b;
}

/**
 * How much of the store's dictionary a based row is deflated with, before its base: the base holds
 * nearly all a poll repeats, and a dictionary is hashed whole for every row packed or read with it
 * (the whole 32 KB took 2.6 times as long for 25 bytes a call less).
 */
const BASED_STORE_BYTES = 8 * 1024;

/** The dictionary a based row is deflated with: the newest part of the store's, then the base (deflate keeps the last 32 KB). */
function basedDictionary(d: Dictionary, base: Buffer): Buffer {
  const joined = Buffer.concat([d.data.subarray(Math.max(0, d.data.length - BASED_STORE_BYTES)), Buffer.from('\n'), base]);
  return joined.subarray(Math.max(0, joined.length - DICTIONARY_BYTES));
}

function compress(text: Buffer, d: Dictionary): Buffer {
  const body = deflateRawSync(text, { dictionary: d.data, level: constants.Z_DEFAULT_COMPRESSION });
  return Buffer.concat([Buffer.from([FORMAT, ...writeVarint(d.id)]), crcBytes(d.crc), body]);
}

function compressBased(db: Database, text: Buffer, d: Dictionary, messageId: number, base: Base): Buffer {
  const dictionary = basesOf(db).dictionary(d, messageId, base.crc, () => base.text);
  const body = deflateRawSync(text, { dictionary, level: constants.Z_DEFAULT_COMPRESSION });
  return Buffer.concat([Buffer.from([FORMAT_BASED, ...writeVarint(d.id)]), crcBytes(d.crc), Buffer.from(writeVarint(messageId)), crcBytes(base.crc), body]);
}

/**
 * The most bytes a packed row may unpack to: far above what Callout keeps of an exchange (1 MB of a
 * reply), so that a row of a file made elsewhere (an archive) cannot take the machine's memory.
 */
export const MAX_UNPACKED_BYTES = 32 * 1024 * 1024;

/** A message's base: the text its polls are packed against, and its CRC-32 (which a based row names). */
interface Base {
  text: Buffer;
  crc: number;
}

/**
 * The bases a connection has read lately (a poll's message's, to read it or to pack the next), and
 * the ones put there for one statement (`withBases`): SQL reads a row's text through a function that
 * cannot read the database, so the statements that read based rows in SQL are given their bases first.
 */
class Bases {
  private readonly recent = new Map<string, Buffer>();
  /** The dictionaries made of a store dictionary and a base, lately used (a page reads a call's polls one after another). */
  private readonly joined = new Map<string, Buffer>();
  private readonly statements = new Map<string, Statement>();
  scoped: Map<string, Buffer> | null = null;

  /** A statement of the bases', prepared once a connection (a poll is packed or read at every insert and page). */
  statement(db: Database, sql: string): Statement {
    let s = this.statements.get(sql);
    if (!s) this.statements.set(sql, (s = db.prepare(sql)));
    return s;
  }

  dictionary(d: Dictionary, messageId: number, crc: number, text: () => Buffer): Buffer {
    const key = `${d.id}:${d.crc}:${messageId}:${crc}`;
    let joined = this.joined.get(key);
    if (joined) return joined;
    joined = basedDictionary(d, text());
    this.joined.set(key, joined);
    if (this.joined.size > 256) this.joined.delete(this.joined.keys().next().value!);
    return joined;
  }

  get(messageId: number, crc: number): Buffer | undefined {
    const key = `${messageId}:${crc}`;
    return this.scoped?.get(key) ?? this.recent.get(key);
  }

  remember(messageId: number, base: Base): void {
    const key = `${messageId}:${base.crc}`;
    this.recent.delete(key);
    this.recent.set(key, base.text);
    if (this.recent.size > 1024) this.recent.delete(this.recent.keys().next().value!);
  }
}

const bases = new WeakMap<Database, Bases>();

function basesOf(db: Database): Bases {
  let b = bases.get(db);
  if (!b) bases.set(db, (b = new Bases()));
  return b;
}

interface Header {
  dict: Dictionary;
  /** Where the deflated text starts. */
  body: number;
  /** A based row's message and base CRC. */
  based: { messageId: number; crc: number } | null;
}

function readHeader(db: Database, packed: Uint8Array, mayRead: boolean): Header {
  const format = packed[0];
  if (format !== FORMAT && format !== FORMAT_BASED) throw new Error(`callout: a packed exchange of an unknown format (${format})`);
  const [id, at] = readVarint(packed, 1);
  const crc = Buffer.from(packed.buffer, packed.byteOffset + at, 4).readUInt32LE(0);
  const dicts = dictionariesOf(db);
  if (dicts.byId.get(id)?.crc !== crc && mayRead) dicts.refresh(db);
  const dict = dicts.byId.get(id);
  if (!dict || dict.crc !== crc) throw new Error(`callout: exchange dictionary ${id} is not in this store`);
  if (format === FORMAT) return { dict, body: at + 4, based: null };
  const [messageId, next] = readVarint(packed, at + 4);
  if (next + 4 > packed.length) throw new Error('callout: a packed exchange is cut short');
  const baseCrc = Buffer.from(packed.buffer, packed.byteOffset + next, 4).readUInt32LE(0);
  return { dict, body: next + 4, based: { messageId, crc: baseCrc } };
}

/** A format-1 blob's text (a base is one). */
function inflatePlain(db: Database, packed: Uint8Array, mayRead: boolean): Buffer {
  const h = readHeader(db, packed, mayRead);
  if (h.based) throw new Error('callout: a base is packed against another base');
  return inflateRawSync(packed.subarray(h.body), { dictionary: h.dict.data, maxOutputLength: MAX_UNPACKED_BYTES });
}

/** The `exchange_bases` row of a message, read in the connection's snapshot (null when it has none). */
function readBase(db: Database, messageId: number, schema = 'main'): Base | null {
  const row = basesOf(db).statement(db, `SELECT packed FROM ${schema}.exchange_bases WHERE message_id = ?`).get(messageId) as { packed: Buffer } | undefined;
  if (!row) return null;
  const text = inflatePlain(db, row.packed, true);
  const base = { text, crc: crc32(text) };
  basesOf(db).remember(messageId, base);
  return base;
}

function baseText(db: Database, based: NonNullable<Header['based']>, mayRead: boolean, basePacked?: Uint8Array | null): Buffer {
  const b = basesOf(db);
  let text = b.get(based.messageId, based.crc);
  if (!text && basePacked) {
    const t = inflatePlain(db, basePacked, mayRead);
    if (crc32(t) === based.crc) b.remember(based.messageId, { text: (text = t), crc: based.crc });
  }
  if (!text && mayRead) {
    const read = readBase(db, based.messageId);
    if (read?.crc === based.crc) text = read.text;
  }
  if (!text) throw new Error(`callout: the base of message ${based.messageId}'s polls is not ${mayRead ? 'in this store' : 'read'}`);
  return text;
}

/**
 * The parts back from `packed`. Reads a dictionary or a base it has not seen (made by another
 * process) when allowed; `basePacked`, a based row's base as stored, when the caller read it with the row.
 */
export function unpack(db: Database, packed: Uint8Array, mayRead = true, basePacked?: Uint8Array | null): PackedParts {
  const h = readHeader(db, packed, mayRead);
  const based = h.based;
  const dictionary = based ? basesOf(db).dictionary(h.dict, based.messageId, based.crc, () => baseText(db, based, mayRead, basePacked)) : h.dict.data;
  const values = JSON.parse(inflateRawSync(packed.subarray(h.body), { dictionary, maxOutputLength: MAX_UNPACKED_BYTES }).toString('utf8')) as (string | null)[];
  return Object.fromEntries(PACKED_COLUMNS.map((c, i) => [c, values[i] ?? null])) as PackedParts;
}

/**
 * A row's parts, packed or not: what the inspector, HAR, cURL and search read. `mayRead` false while a
 * statement of the connection is still being read (the dictionaries were refreshed before it, and the
 * row carries its base as `base_packed`, or the base was given by `withBases`).
 */
export function unpackRow<T extends Partial<PackedParts> & { packed?: Uint8Array | null; base_packed?: Uint8Array | null }>(
  db: Database,
  row: T,
  mayRead = true,
): T {
  if (!row.packed) return row;
  return { ...row, ...unpack(db, row.packed, mayRead, row.base_packed) };
}

/**
 * Runs `fn` (a statement that reads rows' text in SQL) with the bases of the messages `first` ≤ id ≤
 * `last` of `schema`'s store given to the SQL function (read first: it cannot read them itself).
 */
export function withBases<T>(db: Database, schema: string, first: number | bigint, last: number | bigint, fn: () => T): T {
  if (!keepsBases(db, schema)) return fn();
  const rows = db.prepare(`SELECT message_id, packed FROM ${schema}.exchange_bases WHERE message_id BETWEEN ? AND ?`).all(first, last);
  return withBaseRows(db, rows as BaseRow[], fn);
}

interface BaseRow {
  message_id: number;
  packed: Buffer;
}

function withBaseRows<T>(db: Database, rows: readonly BaseRow[], fn: () => T): T {
  const b = basesOf(db);
  const scoped = new Map<string, Buffer>();
  for (const r of rows) {
    const text = inflatePlain(db, r.packed, true);
    scoped.set(`${r.message_id}:${crc32(text)}`, text);
  }
  const before = b.scoped;
  b.scoped = scoped;
  try {
    return fn();
  } finally {
    b.scoped = before;
  }
}

/**
 * Whether `schema`'s store keeps bases (migration 0026): a store at an older schema packs polls on
 * their own. Once the live store has the table it keeps it (remembered for the connection).
 */
export function keepsBases(db: Database, schema = 'main'): boolean {
  if (schema === 'main' && withBaseTable.has(db)) return true;
  const has = db.prepare(`SELECT 1 FROM ${schema}.sqlite_master WHERE type = 'table' AND name = 'exchange_bases'`).get() !== undefined;
  if (has && schema === 'main') withBaseTable.add(db);
  return has;
}
const withBaseTable = new WeakSet<Database>();

const INSERT_BASE = 'INSERT INTO exchange_bases (message_id, dict_id, packed) VALUES (?, ?, ?)';

/** The text the search looks in: URL, request headers and body, response headers and body, one per line. */
export function searchText(p: Pick<PackedParts, 'url' | 'request_headers' | 'request_body' | 'response_headers' | 'response_body'>): string {
  return `${p.url}\n${p.request_headers}\n${p.request_body ?? ''}\n${p.response_headers ?? ''}\n${p.response_body ?? ''}`;
}

/**
 * The dictionary to pack the next exchange with: the newest, after making one from the store's
 * newest exchanges when enough were stored since the last (or the seed, in a store with none).
 * Runs inside the caller's write transaction.
 */
function dictionaryFor(db: Database): Dictionary {
  const dicts = dictionariesOf(db);
  dicts.refresh(db);
  const newestExchange = dicts.newestExchange(db);
  const current = dicts.newest;
  const since = newestExchange - (current?.afterExchange ?? 0);
  const due = current === null || since >= (current.kind === 'seed' ? TRAIN_AFTER : RETRAIN_EVERY);
  if (!due) return current;
  // Learnt from the store's own exchanges once there are enough of them; until then, SEED.
  const trained = newestExchange >= TRAIN_AFTER ? train(db, newestExchange) : null;
  if (!trained && current) return current;
  const data = trained ?? Buffer.from(SEED);
  const made: Omit<Dictionary, 'id'> = { data, crc: crc32(data), afterExchange: newestExchange, kind: trained ? 'trained' : 'seed' };
  const id = Number(
    db.prepare('INSERT INTO exchange_dicts (after_exchange, kind, crc, data) VALUES (?, ?, ?, ?)').run(made.afterExchange, made.kind, made.crc, made.data)
      .lastInsertRowid,
  );
  dicts.add({ id, ...made });
  return dicts.byId.get(id)!;
}

/** A dictionary from the newest exchanges (their packed form, distinct, newest last), or null when there are none. */
function train(db: Database, newestExchange: number): Buffer | null {
  const rows = db
    .prepare(`SELECT ${PACKED_COLUMNS.join(', ')}, packed FROM exchanges WHERE id <= ? ORDER BY id DESC LIMIT ${TRAIN_SAMPLE}`)
    .all(newestExchange) as (PackedParts & { packed: Buffer | null })[];
  const seen = new Set<string>();
  const chunks: Buffer[] = [];
  let bytes = 0;
  for (const row of rows) {
    const text = encode(unpackRow(db, row));
    const key = text.toString('latin1');
    if (seen.has(key)) continue;
    seen.add(key);
    chunks.unshift(text);
    bytes += text.length + 1;
    if (bytes >= DICTIONARY_BYTES) break;
  }
  if (!chunks.length) return null;
  const joined = Buffer.concat(chunks.flatMap((c) => [c, Buffer.from('\n')]));
  return joined.subarray(Math.max(0, joined.length - DICTIONARY_BYTES));
}

/** Packs an exchange's parts for storing (inside the caller's write transaction). */
export function pack(db: Database, parts: PackedParts): Packed {
  const d = dictionaryFor(db);
  return { packed: compress(encode(parts), d), dictId: d.id };
}

/**
 * Packs a status poll of a message against the message's base (migration 0026), making the base of
 * this poll when the message has none; inside the caller's write transaction.
 */
export function packPoll(db: Database, parts: PackedParts, messageId: number): Packed {
  return pollPacker(db, dictionaryFor(db))(parts, messageId);
}

/** Gives the SQL function the base of a message (its search entry is remade by the insert's trigger). */
export function readyBase(db: Database, messageId: number): void {
  if (keepsBases(db)) readBase(db, messageId);
}

function pollPacker(db: Database, d: Dictionary): (parts: PackedParts, messageId: number) => Packed {
  if (!keepsBases(db)) return (parts) => ({ packed: compress(encode(parts), d), dictId: d.id });
  const insertBase = basesOf(db).statement(db, INSERT_BASE);
  return (parts, messageId) => {
    const text = encode(parts);
    let base = readBase(db, messageId);
    if (!base) {
      insertBase.run(messageId, d.id, compress(text, d));
      base = { text, crc: crc32(text) };
      basesOf(db).remember(messageId, base);
    }
    return { packed: compressBased(db, text, d, messageId, base), dictId: d.id };
  };
}

/**
 * Packs many rows with one dictionary (the packing job's batch), inside the caller's write
 * transaction: a status poll of a message against its base, any other row on its own.
 */
export function packer(db: Database): (parts: PackedParts, poll?: { messageId: number } | null) => Packed {
  const d = dictionaryFor(db);
  const polls = pollPacker(db, d);
  return (parts, poll) => (poll ? polls(parts, poll.messageId) : { packed: compress(encode(parts), d), dictId: d.id });
}

/**
 * Migration 0026's fill: a message's polls already packed on their own (format 1), packed again against
 * a base made of the first of them, each with its own dictionary (so the dictionaries' counts hold).
 * `rows`: the message's polls, oldest first. Returns the rows' new blobs by id.
 */
export function rebasePolls(db: Database, messageId: number, rows: ReadonlyArray<{ id: number; packed: Buffer }>): Map<number, Buffer> {
  const out = new Map<number, Buffer>();
  let base = readBase(db, messageId);
  for (const row of rows) {
    const h = readHeader(db, row.packed, true);
    if (h.based) continue;
    const text = inflateRawSync(row.packed.subarray(h.body), { dictionary: h.dict.data, maxOutputLength: MAX_UNPACKED_BYTES });
    if (!base) {
      // The first poll's own blob is the base's: the same text, packed with the same dictionary.
      basesOf(db).statement(db, INSERT_BASE).run(messageId, h.dict.id, row.packed);
      base = { text, crc: crc32(text) };
      basesOf(db).remember(messageId, base);
    }
    out.set(row.id, compressBased(db, text, h.dict, messageId, base));
  }
  return out;
}

/** A packed row's blob and the dictionary it names (kept in `exchanges.dict_id`, which counts each dictionary's rows). */
export interface Packed {
  packed: Buffer;
  dictId: number;
}

/** The columns a packed row keeps instead of its parts (the NOT NULL ones hold ''). */
export const PACKED_PLACEHOLDERS: PackedParts = {
  url: '',
  request_headers: '',
  request_body: null,
  status_text: null,
  response_headers: null,
  response_body: null,
  error_message: null,
  timings: '',
  capture: null,
};

/**
 * `callout_exchange_text(packed, url, request_headers, request_body, response_headers, response_body)`:
 * an exchange's search text in SQL, packed or not. It cannot read the database (SQLite is busy
 * running the statement), so its caller refreshes the dictionaries first (refreshDictionaries), and
 * gives a based row's base (`withBases`, or the seventh argument: the base as stored, which SQL that
 * reads rows of any message passes, migration 0026). Also `callout_words(text)`, what the word
 * index holds of a text (migration 0027).
 */
export function registerExchangeFunctions(db: Database): void {
  const text = (packed: unknown, columns: unknown[], base: unknown): string => {
    if (packed instanceof Uint8Array && packed.length) return searchText(unpack(db, packed, false, base instanceof Uint8Array ? base : null));
    const s = (v: unknown) => (typeof v === 'string' ? v : null);
    const [url, requestHeaders, requestBody, responseHeaders, responseBody] = columns;
    return searchText({
      url: s(url) ?? '',
      request_headers: s(requestHeaders) ?? '',
      request_body: s(requestBody),
      response_headers: s(responseHeaders),
      response_body: s(responseBody),
    });
  };
  db.function('callout_exchange_text', { deterministic: true }, (packed: unknown, a: unknown, b: unknown, c: unknown, d: unknown, e: unknown) =>
    text(packed, [a, b, c, d, e], null),
  );
  db.function('callout_exchange_text', { deterministic: true }, (packed: unknown, a: unknown, b: unknown, c: unknown, d: unknown, e: unknown, base: unknown) =>
    text(packed, [a, b, c, d, e], base),
  );
  // What the word index holds of a text (migration 0027, words.ts).
  db.function('callout_words', { deterministic: true }, (t: unknown) => (typeof t === 'string' ? indexWords(t) : ''));
}
