// A reply dialect: where each value is in a provider's replies (and receipts) and what its values
// mean. It is data — a JSON file a tester can write, share and import — validated here, with a
// problem code per field (its words are the catalog's issue.dialect-*). Callout reads replies with
// it (read.ts); the sandbox speaks it (its optional `shape` says how the provider writes).
import { z } from 'zod';
import { CALL_STATES, type CallState } from '../domain/status';

/** The states a provider's value may be mapped to (mapping to "unknown" would be no mapping). */
export const MAPPABLE_STATES = CALL_STATES.filter((s): s is Exclude<CallState, 'unknown'> => s !== 'unknown');
export type MappableState = (typeof MAPPABLE_STATES)[number];

/** A dialect file is read only up to this size. */
export const MAX_DIALECT_BYTES = 256 * 1024;
export const MAX_STATE_VALUES = 500;

/**
 * A place in a reply: dot-separated names and list positions (`data.list.0.state`); '' is the
 * whole reply. A field that holds a JSON text is parsed on the way (`data` holding "{\"state\":…}").
 */
const path = z
  .string({ error: 'dialect-path' })
  .max(200, 'dialect-path')
  .regex(/^[^\s.]*(\.[^\s.]+)*$/, 'dialect-path');

/** One place, or several tried in order (the first one present — for a state, the first that maps). */
const paths = z.union([path, z.array(path, { error: 'dialect-path' }).min(1, 'dialect-path').max(20, 'dialect-path')], { error: 'dialect-path' });

const state = z.enum(MAPPABLE_STATES, { error: 'dialect-state' });

/** Provider value → our state. Keys are compared ignoring case, spaces, dashes and underscores. */
const states = z
  .record(z.string().min(1, 'dialect-value').max(100, 'dialect-value'), state)
  .refine((m) => Object.keys(m).length <= MAX_STATE_VALUES, 'dialect-too-many-values');

/** A provider's result code as a dialect names it: a number's digits or a code word (`FailedOperation.InsufficientBalance`, `OK`, `000000`). */
const codeKey = z
  .string()
  .max(100, 'dialect-code')
  .regex(/^[^\s]+$/u, 'dialect-code');

/** A success value: a number or a string, as the provider writes it. */
const successValue = z.union(
  [
    z.number({ error: 'dialect-success' }).int('dialect-success'),
    z.string({ error: 'dialect-success' }).trim().min(1, 'dialect-success').max(100, 'dialect-success'),
  ],
  { error: 'dialect-success' },
);

/**
 * What a successful reply looks like: the code's value (a number, a string, or any of several), or
 * `{ "absent": "Response.Error" }` (a reply without that field is a success; with it, its code is
 * read at `code` and refused unless `codes` says otherwise).
 */
const success = z.union(
  [
    successValue,
    z.array(successValue, { error: 'dialect-success' }).min(1, 'dialect-success').max(50, 'dialect-success'),
    z.object({ absent: paths }).strict(),
  ],
  { error: 'dialect-success' },
);

/** A time unit for a duration written in another unit than seconds. */
const durationUnit = z.enum(['s', 'ms', 'min'], { error: 'dialect-unit' });

/** How times are written: Unix seconds or milliseconds (numbers or strings), local date-time text, or told apart by their look (default). */
const timeFormat = z.enum(['auto', 's', 'ms', 'text'], { error: 'dialect-time-format' });

/** An IANA time zone (for local date-time text). */
const zone = z
  .string()
  .max(60, 'dialect-zone')
  .refine((z) => {
    try {
      new Intl.DateTimeFormat('en', { timeZone: z });
      return true;
    } catch {
      return false;
    }
  }, 'dialect-zone');

/**
 * A call's duration: a place holding seconds; a place holding it in another unit
 * (`{ "at": "billsec_ms", "unit": "ms" }`); or computed from two times
 * (`{ "from": "accept_time", "to": "end_calltime", "times": "s" }`).
 */
const duration = z.union(
  [
    paths,
    z.object({ at: paths, unit: durationUnit }).strict(),
    z.object({ from: paths, to: paths, times: timeFormat.default('auto'), zone: zone.default('Asia/Shanghai') }).strict(),
  ],
  { error: 'dialect-duration' },
);

/**
 * One kind of receipt among several a provider posts (a result callback, a failure callback): which
 * posts it is (`when`: a place and its value, or true for "present"), and how its values are read
 * (its own state place, state map and duration), the receipt's own settings otherwise.
 */
const receiptKind = z
  .object({
    when: z
      .record(path, z.union([z.string().max(100), z.number(), z.literal(true)], { error: 'dialect-when' }), { error: 'dialect-when' })
      .refine((m) => Object.keys(m).length >= 1 && Object.keys(m).length <= 10, 'dialect-when'),
    state: paths.optional(),
    states: states.optional(),
    duration: duration.optional(),
  })
  .strict();

const code = z
  .object({
    meaning: z.string().trim().max(200, 'dialect-meaning').optional(),
    outcome: z.enum(['accepted', 'rejected', 'unknown'], { error: 'dialect-outcome' }),
  })
  .strict();

const ack = z
  .object({
    status: z.number({ error: 'dialect-ack-status' }).int('dialect-ack-status').min(200, 'dialect-ack-status').max(299, 'dialect-ack-status').default(200),
    type: z
      .string()
      .max(100, 'dialect-ack-type')
      .regex(/^[\w.+-]+\/[\w.+-]+(\s*;\s*[\w-]+=[\w.-]+)*$/, 'dialect-ack-type')
      .optional(),
    body: z.string().max(2000, 'dialect-ack-body').default('ok'),
  })
  .strict();

/** How the provider writes its replies and receipts: used by the sandbox to rehearse it, never needed to read them. */
const shape = z
  .object({
    /** Reply format when the request does not ask for one. */
    format: z.enum(['json', 'xml']).optional(),
    /** Namespace on the XML root element (`<SubmitResult xmlns="…">`). */
    xmlns: z.string().max(200).optional(),
    roots: z
      .object({ send: z.string().max(60).optional(), status: z.string().max(60).optional(), balance: z.string().max(60).optional() })
      .strict()
      .optional(),
    /** Every value written as a string ("2", "12"). */
    strings: z.boolean().optional(),
    /** Places whose object is written as a JSON text. */
    encoded: z.array(path).max(20).optional(),
    /** Places where the status record is written as a list of records. */
    lists: z.array(path).max(20).optional(),
    charset: z.enum(['utf-8', 'gbk', 'gb18030']).optional(),
    /** The value written at each state place, per state (default: the first value mapped to it). */
    values: z.record(path, z.partialRecord(z.enum(CALL_STATES), z.string().max(100))).optional(),
    /** The provider's code for each of the spec's codes ("401": "405"). */
    codes: z.record(z.string().regex(/^\d{1,9}$/), codeKey).optional(),
    receipt: z
      .object({
        format: z.enum(['json', 'form', 'xml']).default('json'),
        /** With form: the field holding the receipts as a JSON text (one post, many receipts). */
        field: z.string().max(60).optional(),
        /** Receipts per post (default 1). */
        batch: z.number().int().min(1).max(500).optional(),
        root: z.string().max(60).optional(),
      })
      .strict()
      .optional(),
  })
  .strict();

/** A request field's name as the provider writes it (`account`, `appid`, `to`…). */
const fieldName = z
  .string({ error: 'dialect-field' })
  .min(1, 'dialect-field')
  .max(60, 'dialect-field')
  .regex(/^[^\s&=#?]+$/u, 'dialect-field');

/** What Callout sends, under the provider's names; null: not sent at all. */
const requestFields = z
  .object({
    account: fieldName.nullable(),
    password: fieldName.nullable(),
    mobile: fieldName.nullable(),
    content: fieldName.nullable(),
    /** The message id (status queries). */
    id: fieldName.nullable(),
    /** The reply format asked for (json or xml). */
    format: fieldName.nullable(),
  })
  .partial()
  .strict();

/** An operation's path below the base URL: a query allowed (`/webservice/voice.php?method=Submit`). */
const requestPath = z
  .string({ error: 'dialect-request-path' })
  .max(300, 'dialect-request-path')
  .regex(/^\/[^\s#]*$/u, 'dialect-request-path')
  // No `.` or `..` segment (also `%2e`, or between backslashes): the URL parser would climb out of the base URL's own path (a gateway's route for this account).
  .refine((p) => !/(^|[/\\])(\.|%2e){1,2}([/\\?]|$)/i.test(p.split('?')[0]!), 'dialect-request-path');

/** How one operation is requested; what it leaves out comes from the dialect's `request`, then the spec. */
const requestOp = z
  .object({
    method: z.enum(['POST', 'GET'], { error: 'dialect-method' }).optional(),
    path: requestPath.optional(),
    /** How the fields travel: a JSON body, a form body, or the URL's query (a GET always uses the query). */
    body: z.enum(['json', 'form', 'query'], { error: 'dialect-body' }).optional(),
    fields: requestFields.optional(),
    /** Fields sent as they are (`"sign_type": "normal"`). */
    extra: z
      .record(fieldName, z.string({ error: 'dialect-extra' }).max(500, 'dialect-extra'))
      .refine((m) => Object.keys(m).length <= 20, 'dialect-extra')
      .optional(),
  })
  .strict();

/** Headers the transport, the signature or Callout itself set: never the key's. */
const RESERVED_HEADERS: ReadonlySet<string> = new Set([
  'host',
  'content-length',
  'content-type',
  'transfer-encoding',
  'connection',
  'keep-alive',
  'upgrade',
  'te',
  'trailer',
  'expect',
  'date',
  'accept',
]);

/** Where the API Key goes: the password field (default), a header (`{ "header": "X-Api-Key" }`), or only the spec's signature. */
const keyPlace = z.union(
  [
    z.literal('field'),
    z.literal('signature'),
    z
      .object({
        header: z
          .string()
          .regex(/^[!#$%&'*+.^_`|~\w-]{1,60}$/, 'dialect-key')
          // Not a header that says where or how the request travels (the key in `Host` would be routed on), nor one Callout sets itself.
          .refine((h) => !RESERVED_HEADERS.has(h.toLowerCase()) && !/^proxy-/i.test(h), 'dialect-key'),
        prefix: z
          .string()
          .max(40, 'dialect-key')
          .regex(/^[\x20-\x7e]*$/, 'dialect-key')
          .default(''),
      })
      .strict(),
  ],
  { error: 'dialect-key' },
);

/** How the provider wants its requests: shared settings, then each operation's own. */
const request = requestOp
  .extend({
    key: keyPlace.default('field'),
    send: requestOp.optional(),
    status: requestOp.optional(),
    balance: requestOp.optional(),
  })
  .strict();

export const dialectSchema = z
  .object({
    /** Set on built-in dialects (spec, voiceid-push, ...); a dialect of your own has none. */
    id: z
      .string()
      .max(60)
      .regex(/^[a-z0-9-]+$/, 'dialect-id')
      .optional(),
    name: z.string({ error: 'dialect-name' }).trim().min(1, 'dialect-name').max(80, 'dialect-name'),
    description: z.string().max(1000, 'dialect-description').optional(),
    /** Where the result code is, and where its description is. */
    code: paths.default('code'),
    message: paths.default(['msg', 'message']),
    /** What a success looks like (default: the codes named accepted below, else the spec's 2). */
    success: success.optional(),
    /** Codes beyond the spec's (2 success, 500 unknown, others refused), with their meaning: numbers or code words. */
    codes: z
      .record(codeKey, code)
      .refine((m) => Object.keys(m).length <= 200, 'dialect-too-many-values')
      .optional(),
    /** Also recognise common English and Chinese words for states ("answered", "已接听", "busy"…). */
    words: z.boolean().default(true),
    send: z.object({ id: paths, count: paths.optional() }).strict(),
    /** null: the provider has no status query (calls are followed by receipts only). */
    status: z
      .object({
        record: paths.optional(),
        id: paths.optional(),
        state: paths,
        duration: duration.optional(),
        attempts: paths.optional(),
        states: states.default({}),
      })
      .strict()
      .nullable(),
    balance: z.object({ units: paths }).strict().nullable().optional(),
    /** Receipts the provider posts: where the list is (absent: the post itself, or a JSON list), each one's id, state, duration. */
    receipt: z
      .object({
        list: paths.optional(),
        id: paths,
        state: paths,
        duration: duration.optional(),
        /** Default: the status values. */
        states: states.optional(),
        /** Several kinds of receipt, each read its own way; the first whose `when` matches is used (none: the settings above). */
        kinds: z.array(receiptKind, { error: 'dialect-when' }).max(10, 'dialect-when').optional(),
        ack: ack.default({ status: 200, body: 'ok' }),
      })
      .strict()
      .optional(),
    /** How requests are made (absent: the spec's JSON POSTs to /voice/vm, /voice/status and /voice/balance). */
    request: request.optional(),
    shape: shape.optional(),
  })
  .strict();

export type Dialect = z.output<typeof dialectSchema>;
export type DialectInput = z.input<typeof dialectSchema>;
export type DialectPaths = string | string[];
export type DurationPlace = z.output<typeof duration>;
export type SuccessRule = z.output<typeof success>;
export type StateMap = Record<string, MappableState>;
export type DialectRequest = z.output<typeof request>;
export type DialectRequestOp = z.output<typeof requestOp>;
export type KeyPlace = z.output<typeof keyPlace>;
