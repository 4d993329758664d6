// The tester's workbench: the raw client (any method, path and query, headers of one's own, a body
// as form fields, JSON or raw text, malformed on purpose if wanted), saved requests in collections
// with variables and simple assertions, per-profile environments, runs and their results, and code
// for a request (cURL, Node fetch, Python requests, Go). The API Key never comes here: main fills
// `{{password}}` (and `{{account}}`) itself, and code with the key goes from main to the clipboard.
import { z } from 'zod';
import type { ExchangeRecord, Header } from '../records';
import type { IpcError } from './errors';
import type { FailureView } from './send';
import { archiveName, event, id, messageId, none, op } from './define';
import { EVENT_CHANNELS } from './channels';

/** An HTTP token (RFC 9110): what a method or a header name may be made of. */
export const HTTP_TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
/**
 * What a header value may hold: tab, visible ASCII and Latin-1 (the bytes HTTP/1.1 carries as they
 * are; Node refuses anything else). No line break: a header cannot smuggle another.
 */
export const HEADER_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;
/** A variable's name, as written between double braces: `{{mobile}}`. */
export const VARIABLE_NAME = /^[A-Za-z_][\w.-]{0,63}$/;
/** Filled by main from the profile (the key from the keychain): never stored in a collection or an environment. */
export const RESERVED_VARIABLES = ['account', 'password'] as const;
/** The largest body the raw client sends (a request, not an upload). */
export const MAX_BODY_CHARS = 1_000_000;
/** The code languages offered (httpsnippet's targets). */
export const CODE_TARGETS = ['curl', 'node', 'python', 'go'] as const;
export type CodeTarget = (typeof CODE_TARGETS)[number];
/** Headers Callout (or the transport) would set that the raw client may leave out. */
export const OMITTABLE_HEADERS = ['Content-Type', 'Accept', 'Host', 'Content-Length'] as const;
export type OmittableHeader = (typeof OMITTABLE_HEADERS)[number];

const method = z
  .string()
  .trim()
  .min(1, 'method-required')
  .max(24, 'method-invalid')
  .regex(HTTP_TOKEN, 'method-invalid')
  .refine((m) => m.toUpperCase() !== 'CONNECT', 'method-connect');

const headerRow = z
  .object({
    name: z.string().trim().min(1, 'header-name').max(128, 'header-name').regex(HTTP_TOKEN, 'header-name'),
    value: z.string().max(8192, 'header-value').regex(HEADER_VALUE, 'header-value'),
    enabled: z.boolean().default(true),
  })
  .strict();

const fieldRow = z
  .object({
    name: z.string().max(256, 'field-name'),
    value: z.string().max(100_000, 'field-value'),
    enabled: z.boolean().default(true),
  })
  .strict();

export const rawBody = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('none') }).strict(),
  z.object({ kind: z.literal('form'), fields: z.array(fieldRow).max(200, 'too-many-fields') }).strict(),
  z.object({ kind: z.literal('json'), text: z.string().max(MAX_BODY_CHARS, 'body-too-long') }).strict(),
  z.object({ kind: z.literal('text'), text: z.string().max(MAX_BODY_CHARS, 'body-too-long') }).strict(),
]);

/**
 * A request as the raw client sends it, relative to a profile's base URL. `{{name}}` anywhere
 * (path, header values, body) is a variable; `{{account}}` and `{{password}}` are filled by main.
 * - `credentials`: where main puts Callout's parameters (account, password, format): into the body
 *   (a JSON object's first fields, or form fields), the query string, or nowhere.
 * - `headers`: sent as written; one named like a header Callout sets replaces it (a wrong Date on
 *   purpose is signed as it is sent). `omit` leaves out one Callout would add.
 * - `signing`: the profile's, none, or one variant; computed over what is sent.
 */
export const rawRequest = z
  .object({
    method: method.default('POST'),
    path: z
      .string()
      .trim()
      .min(1, 'path-invalid')
      .max(4000, 'path-invalid')
      .regex(/^\/[^\s#]*$/, 'path-invalid'),
    headers: z.array(headerRow).max(100, 'too-many-headers').default([]),
    omit: z.array(z.enum(OMITTABLE_HEADERS)).max(OMITTABLE_HEADERS.length).default([]),
    body: rawBody.default({ kind: 'none' }),
    credentials: z.enum(['body', 'query', 'none']).default('body'),
    format: z.enum(['json', 'xml']).default('json'),
    signing: z.enum(['profile', 'off', 'spec', 'apisix']).default('profile'),
  })
  .strict();

export type RawRequest = z.output<typeof rawRequest>;
export type RawRequestInput = z.input<typeof rawRequest>;
export type RawBody = RawRequest['body'];
export type RawHeaderRow = RawRequest['headers'][number];

/**
 * A path into a reply, JSON or XML as parsed: `code`, `data.list[0].state`, `$.msg`,
 * `$["a b"]` (see common/domain/json-path.ts).
 */
const jsonPath = z.string().trim().min(1, 'json-path').max(500, 'json-path');

export const assertion = z.discriminatedUnion('kind', [
  /** The HTTP status. */
  z.object({ kind: z.literal('status'), equals: z.number().int().min(100, 'status-range').max(599, 'status-range') }).strict(),
  /** The provider's result code, read as Callout reads replies. */
  z.object({ kind: z.literal('code'), equals: z.number().int().min(-1_000_000).max(1_000_000) }).strict(),
  /** A value in the reply equals this (a JSON literal, or text; variables allowed). */
  z.object({ kind: z.literal('json-equals'), path: jsonPath, equals: z.string().max(10_000) }).strict(),
  z.object({ kind: z.literal('json-exists'), path: jsonPath }).strict(),
]);
export type Assertion = z.output<typeof assertion>;

const variableName = z
  .string()
  .trim()
  .regex(VARIABLE_NAME, 'variable-name')
  .refine((n) => !(RESERVED_VARIABLES as readonly string[]).includes(n.toLowerCase()), 'variable-reserved');

/** After a request, a value of its reply kept as a variable for the requests after it (an smsid for a status query). */
export const capture = z.object({ variable: variableName, path: jsonPath }).strict();
export type Capture = z.output<typeof capture>;

export const variable = z.object({ name: variableName, value: z.string().max(10_000, 'variable-value') }).strict();
export type Variable = z.output<typeof variable>;
const variables = z
  .array(variable)
  .max(200, 'too-many-variables')
  .refine((list) => new Set(list.map((v) => v.name)).size === list.length, 'variable-duplicate')
  .default([]);

const rowId = z.number().int().positive();
const name = z.string().trim().min(1, 'name-required').max(200, 'long-name');

export interface AssertionResult {
  assertion: Assertion;
  passed: boolean;
  /** What was found (the status, the code, the value at the path as JSON), or null when nothing was. */
  actual: string | null;
  /** For json-equals: the expected value with its variables filled in, as it was compared. */
  expected?: string;
}

export interface SavedRequestView {
  id: number;
  collectionId: number;
  position: number;
  name: string;
  request: RawRequest;
  assertions: Assertion[];
  captures: Capture[];
  updatedAt: number;
}

export interface CollectionSummary {
  id: number;
  name: string;
  description: string;
  requests: number;
  updatedAt: number;
}

export interface CollectionView {
  id: number;
  name: string;
  description: string;
  variables: Variable[];
  requests: SavedRequestView[];
  createdAt: number;
  updatedAt: number;
}

export interface EnvironmentView {
  id: number;
  name: string;
  /** The profile its requests go to. */
  profileId: string;
  variables: Variable[];
  updatedAt: number;
}

/** What one request of a run (or one send of the raw client) ended as. */
export type ResultOutcome = 'passed' | 'failed' | 'error';

export interface RawResult {
  exchange: ExchangeRecord;
  /** The reply as parsed (JSON or XML), when it could be read. */
  reply: Record<string, unknown> | null;
  /** The provider's result code in the reply, read as Callout reads replies. */
  providerCode: number | null;
  /** No usable reply (transport failure, a gateway's signature rejection, an unreadable body). */
  failure: FailureView | null;
  assertions: AssertionResult[];
  outcome: ResultOutcome;
}

export interface RawPreview {
  method: string;
  url: string;
  headers: Header[];
  body: string | null;
  /** Variables the request uses that have no value (it cannot be sent until they have). */
  unresolved: string[];
}

export interface RunResultView {
  position: number;
  requestId: number | null;
  name: string;
  exchangeId: number | null;
  outcome: ResultOutcome;
  status: number | null;
  providerCode: number | null;
  assertions: AssertionResult[];
  /** Why it could not be sent (an unknown variable...) or why no usable reply came. */
  problem: IpcError | null;
  failure: FailureView | null;
  ms: number | null;
}

export interface RunSummary {
  id: number;
  collectionId: number | null;
  collectionName: string;
  environmentName: string | null;
  profile: string;
  status: 'running' | ResultOutcome;
  total: number;
  passed: number;
  failed: number;
  errored: number;
  startedAt: number;
  endedAt: number | null;
}

export interface RunView extends RunSummary {
  results: RunResultView[];
}

export interface RunProgress {
  runId: number;
  done: number;
  total: number;
  result: RunResultView | null;
}

/** A request read from a pasted cURL command or raw HTTP (the signature workbench's parser). */
export type RawImport =
  | {
      ok: true;
      request: RawRequest;
      warnings: { code: string; params?: object }[];
      /** The pasted URL's origin when it is not the profile's: the request goes to the profile's base URL. */
      otherOrigin: string | null;
    }
  | { ok: false; detail: { code: string; params?: object } };

export interface CollectionImportWarning {
  code: 'script-ignored' | 'auth-ignored' | 'body-mode' | 'url-host' | 'folder-flattened' | 'item-skipped' | 'variable-reserved' | 'more-warnings';
  /** `more`: how many further warnings were left out (`more-warnings`, always the last). */
  params: { item?: string; mode?: string; host?: string; name?: string; more?: number };
}

/** Where a request's variables come from: an environment (and its profile), a collection's own, values given now. */
const scope = {
  profileId: id,
  environmentId: rowId.nullable().optional(),
  collectionId: rowId.nullable().optional(),
  variables: z.array(variable).max(200).optional(),
};

export const workbenchOps = {
  /** Sends one request through the raw client; the exchange is stored (redacted) like every other. */
  'raw.send': op<RawResult>()(z.object({ ...scope, request: rawRequest, assertions: z.array(assertion).max(50).default([]) }).strict()),
  /** The request exactly as it would be sent now, with the key shown as [REDACTED]. Nothing is sent. */
  'raw.preview': op<RawPreview>()(z.object({ ...scope, request: rawRequest }).strict()),
  /** A request from a pasted cURL command or raw HTTP request, relative to the profile's base URL. */
  'raw.import': op<RawImport>()(z.object({ profileId: id, text: z.string().max(1024 * 1024, 'text-too-long') }).strict()),
  /** An exchange as a raw-client request, to send it again (or change it first). */
  'raw.fromExchange': op<{ request: RawRequest; profileId: string | null }>()(z.object({ id: messageId, archive: archiveName.optional() }).strict()),
  /** The request as code (key redacted). */
  'raw.code': op<{ code: string }>()(z.object({ ...scope, request: rawRequest, target: z.enum(CODE_TARGETS) }).strict()),
  /** The request as code WITH the key, written by main to the clipboard; only "copied" comes back. */
  'raw.copyCodeWithKey': op<{ copied: true }>()(
    z.object({ ...scope, request: rawRequest, target: z.enum(CODE_TARGETS), confirm: z.literal(true, { error: 'confirm-required' }) }).strict(),
  ),

  'collections.list': op<CollectionSummary[]>()(none),
  'collections.get': op<CollectionView>()(z.object({ id: rowId }).strict()),
  'collections.save': op<CollectionView>()(z.object({ id: rowId.optional(), name, description: z.string().max(5000).default(''), variables }).strict()),
  'collections.remove': op<{ removed: boolean }>()(z.object({ id: rowId }).strict()),
  'collections.saveRequest': op<SavedRequestView>()(
    z
      .object({
        id: rowId.optional(),
        collectionId: rowId,
        name,
        request: rawRequest,
        assertions: z.array(assertion).max(50).default([]),
        captures: z.array(capture).max(20).default([]),
      })
      .strict(),
  ),
  'collections.removeRequest': op<{ removed: boolean }>()(z.object({ id: rowId }).strict()),
  /** A collection file (Postman Collection v2.1, with Callout's own fields; see docs/collections.md). */
  'collections.import': op<{ collection: CollectionView; warnings: CollectionImportWarning[] }>()(
    z.object({ text: z.string().max(5 * 1024 * 1024, 'file-too-large'), name: name.optional() }).strict(),
  ),
  'collections.export': op<{ fileName: string; json: string }>()(z.object({ id: rowId }).strict()),
  /** Runs a collection (or some of its requests), in order, once each; the run and its results are kept. */
  'collections.run': op<RunView>()(
    z
      .object({
        id: rowId,
        requestIds: z.array(rowId).min(1).max(1000).optional(),
        environmentId: rowId.nullable().optional(),
        /** The profile when no environment names one (or to override it). */
        profileId: id.optional(),
        stopOnFailure: z.boolean().default(false),
        /** Values given for this run (`callout run --var`): they win over the environment's and the collection's. */
        variables: z.array(variable).max(200).optional(),
      })
      .strict(),
  ),

  'environments.list': op<EnvironmentView[]>()(none),
  'environments.save': op<EnvironmentView>()(z.object({ id: rowId.optional(), name, profileId: id, variables }).strict()),
  'environments.remove': op<{ removed: boolean }>()(z.object({ id: rowId }).strict()),

  'runs.list': op<RunSummary[]>()(
    z
      .object({ collectionId: rowId.optional(), limit: z.number().int().min(1).max(500).optional() })
      .strict()
      .optional(),
  ),
  'runs.get': op<RunView>()(z.object({ id: rowId }).strict()),
};

export const workbenchEvents = {
  runProgress: event<RunProgress>()(EVENT_CHANNELS.runProgress),
};
