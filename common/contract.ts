// The one IPC contract. Every operation the renderer may ask for is declared here once:
// its dotted channel name, its input schema (zod) and its output type. Push events from main
// are declared the same way. main (handler table, IPC), preload (window.callout), the browser
// test bridge and the CLI all derive from this object; nothing else declares a channel.
import { z } from 'zod';
import { CALL_STATES, OUTCOMES } from './domain/status';
import type { CallState } from './domain/status';
import type { ExchangeRecord, MessageEventRecord, MessageRecord } from './records';
import type { ExchangePage, HistoryPage, Overview, RetentionResult, RetentionSettings, VacuumResult } from './history-types';
import type {
  BatchItemView,
  BatchProgress,
  BatchRecord,
  ContactGroupRecord,
  ContactMatch,
  ContactRecord,
  DialPlan,
  DialProgress,
  DialSettingsRecord,
  DialStart,
  ImportView,
  RowIssue,
} from './bulk-types';
import { ISSUE_KINDS, ITEM_STATUSES } from './bulk-types';
import type { CodeInfo } from './domain/codes';
import type { ClockProbe, Diagnosis, ParseCapturedResult, SignSteps, VariantProbe, VariantProbeResult, VectorCheck, VerifyReason } from './signature-types';

/** Declares an operation: `op<Output>()(inputSchema)`. The schema checks input at the boundary; the output type is a phantom. */
function op<O>() {
  return <I extends z.ZodType>(input: I): { input: I; output: O } => ({ input, output: undefined as unknown as O });
}

function event<N extends `main:${string}`, P>(channel: N): { channel: N; payload: P } {
  return { channel, payload: undefined as unknown as P };
}

const none = z.object({}).strict().optional();
const id = z.string().trim().min(1, 'required').max(64);
const messageId = z.number().int().positive();

export const SIGNING_MODES = ['off', 'spec', 'apisix'] as const;
export type SigningMode = (typeof SIGNING_MODES)[number];

export const profileInput = z
  .object({
    id: id.optional(),
    name: z.string().trim().min(1, 'name-required').max(60, 'name-too-long'),
    baseUrl: z.url({ protocol: /^https?$/, error: 'base-url-invalid' }).max(2048),
    apiId: z.string().trim().min(1, 'api-id-required').max(128, 'api-id-too-long'),
    signing: z.enum(SIGNING_MODES).default('off'),
    format: z.enum(['json', 'xml']).default('json'),
    connectTimeoutMs: z.number({ error: 'connect-timeout-range' }).int('connect-timeout-range').min(500, 'connect-timeout-range').max(60_000, 'connect-timeout-range').default(5_000),
    totalTimeoutMs: z.number({ error: 'total-timeout-range' }).int('total-timeout-range').min(1_000, 'total-timeout-range').max(300_000, 'total-timeout-range').default(15_000),
    lowBalanceThreshold: z.number({ error: 'threshold-range' }).int('threshold-range').min(0, 'threshold-range').max(10_000_000, 'threshold-range').nullable().default(null),
  })
  .strict();
export type ProfileInput = z.input<typeof profileInput>;

/** A profile as the renderer sees it: never the key, only whether one is set. */
export interface ProfileView {
  id: string;
  name: string;
  baseUrl: string;
  apiId: string;
  signing: SigningMode;
  format: 'json' | 'xml';
  connectTimeoutMs: number;
  totalTimeoutMs: number;
  lowBalanceThreshold: number | null;
  builtin: boolean;
  hasKey: boolean;
  createdAt: number;
  updatedAt: number;
}

export interface SecretStoreView {
  kind: 'keychain' | 'session';
  keychainAvailable: boolean;
  /** Plain English, for logs and the technical detail line. */
  reason: string | null;
  /** Why the keychain is unavailable, for the UI to say in the user's language. */
  reasonCode?: 'forced' | 'component-missing' | 'timeout' | 'unavailable' | null;
}

export interface AppInfo {
  version: string;
  dataDirectory: string;
  secretStore: SecretStoreView;
  sandboxBaseUrl: string | null;
  /** Set when the database was found damaged at start: it was kept aside (never discarded) and a new one started. */
  databaseRecovered: { movedTo: string; reason: string } | null;
}

export interface StoreStatus {
  retention: RetentionSettings;
  /** Bytes of captured exchanges (headers and bodies) and their count. */
  usage: { bytes: number; exchanges: number };
  recovered: { movedTo: string; reason: string } | null;
}

export interface ConsoleResult {
  exchange: ExchangeRecord;
  /** The reply as parsed (JSON or XML), when it could be read. */
  reply: Record<string, unknown> | null;
  failure: FailureView | null;
}

export interface FailureView {
  kind: string;
  outcome: 'not-sent' | 'unknown' | 'rejected';
  message: string;
}

export interface SendView {
  message: MessageRecord;
  code: CodeInfo | null;
  failure: FailureView | null;
}

export interface BalanceView {
  profileId: string;
  units: number | null;
  /** The provider's reply as parsed, for testers (the field carrying the units is not in the spec). */
  raw: Record<string, unknown> | null;
  code: CodeInfo | null;
  failure: FailureView | null;
  low: boolean;
  checkedAt: number;
}

export interface StatusView {
  smsid: string;
  providerCode: number | null;
  msg: string | null;
  code: CodeInfo | null;
  state: CallState;
  duration: number | null;
  raw: Record<string, unknown> | null;
  /** The local message with that smsid, updated, if Callout sent it. */
  message: MessageRecord | null;
  failure: FailureView | null;
}

export interface RecentsView {
  /** Numbers called most recently, newest first. */
  mobiles: string[];
  /** The variable values last used with each template, by template id. */
  lastValues: Record<string, string[]>;
}

export interface ImportResult {
  saved: number;
  errors: { index: number; message: string }[];
}

export interface MessageDetail {
  message: MessageRecord;
  events: MessageEventRecord[];
  exchanges: ExchangeRecord[];
}

export interface TemplateView {
  id: string;
  name: string;
  content: string;
  approved: boolean;
  markerNames: string[];
  markerCount: number;
  createdAt: number;
  updatedAt: number;
}

export type SignStepsView = SignSteps;

export interface VerifyView {
  valid: boolean;
  reason: VerifyReason | null;
  skewSeconds: number | null;
  variant: 'spec' | 'apisix' | null;
}

const signatureKey = z.union([
  z.object({ profileId: id }).strict(),
  z.object({ adHoc: z.string().min(1, 'key-required').max(256) }).strict(),
]);

/** A variant probe without its exchanges (they are stored, and shown in the inspector). */
export interface VariantProbeView {
  accepted: VariantProbe['accepted'];
  results: Omit<VariantProbeResult, 'exchange'>[];
}

export interface VectorCheckView {
  results: VectorCheck[];
  /** Vectors that name a key (`keyRef`) no profile supplies. */
  missingKeys: string[];
}

const historyFilter = z
  .object({
    states: z.array(z.enum(CALL_STATES)).max(CALL_STATES.length).optional(),
    outcomes: z.array(z.enum(OUTCOMES)).max(OUTCOMES.length).optional(),
    from: z.number().int().min(0).optional(),
    to: z.number().int().min(0).optional(),
    profiles: z.array(id).max(100).optional(),
    templates: z.array(id).max(1000).optional(),
    search: z.string().max(200).optional(),
    mobile: z.string().max(40).optional(),
  })
  .strict();

const utcOffsetMinutes = z.number().int().min(-840).max(840);

const batchId = z.number().int().positive();
const mapping = z.record(z.string().max(200), z.string().max(100)).refine((m) => Object.keys(m).length <= 200, 'too-many-columns');
const contactId = z.number().int().positive();
const hhmm = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'time-invalid');

const dialRequest = z
  .object({
    profileId: id,
    targets: z.array(z.union([z.object({ contactId }).strict(), z.object({ mobile: z.string().max(40) }).strict()])).max(20).optional(),
    groupId: z.number().int().positive().optional(),
    templateId: id.nullable().optional(),
    values: z.array(z.string().max(500)).max(50).optional(),
    content: z.string().max(2000).optional(),
    attempts: z.number().int().min(1, 'attempts-range').max(10, 'attempts-range').optional(),
    pauseSeconds: z.number().int().min(0, 'pause-range').max(3600, 'pause-range').optional(),
    override: z.boolean().optional(),
  })
  .strict();

const signatureInputs = {
  method: z.string().trim().min(1).max(16),
  url: z.url({ protocol: /^https?$/, error: 'url-invalid' }).max(4096),
  host: z.string().max(300).optional(),
  date: z.string().max(64).nullable().optional(),
  authorization: z.string().max(4096).nullable().optional(),
};

export const contract = {
  channels: {
    'app.info': op<AppInfo>()(none),
    /** The UI language, for what main says on its own (desktop notifications). */
    'app.setLocale': op<{ locale: 'zh-CN' | 'en' }>()(z.object({ locale: z.enum(['zh-CN', 'en']) }).strict()),

    'profiles.list': op<ProfileView[]>()(none),
    'profiles.save': op<ProfileView>()(profileInput),
    'profiles.remove': op<{ removed: boolean }>()(z.object({ id }).strict()),
    /** Write-only: the key goes to the keychain (or the session store) and never comes back. */
    'profiles.setKey': op<ProfileView>()(
      z.object({ id, apiKey: z.string().min(1, 'key-required').max(256, 'key-too-long') }).strict(),
    ),
    'profiles.deleteKey': op<ProfileView>()(z.object({ id }).strict()),

    'templates.list': op<TemplateView[]>()(none),
    'templates.save': op<TemplateView>()(
      z
        .object({
          id: id.optional(),
          name: z.string().trim().max(60).optional(),
          content: z.string().min(1, 'template-empty').max(2000),
          approved: z.boolean().optional(),
          markerNames: z.array(z.string().max(40)).max(100).optional(),
        })
        .strict(),
    ),
    /** Many templates at once (JSON/CSV import), each checked; the valid ones are saved in one transaction. */
    'templates.import': op<ImportResult>()(
      z
        .object({
          templates: z
            .array(
              z
                .object({
                  id: z.string().trim().max(64).optional(),
                  name: z.string().trim().max(60).optional(),
                  content: z.string().max(2000),
                  approved: z.boolean().optional(),
                })
                .strict(),
            )
            .min(1, 'import-empty')
            .max(5000, 'import-too-many'),
        })
        .strict(),
    ),
    'templates.remove': op<{ removed: boolean }>()(z.object({ id }).strict()),

    'messages.send': op<SendView>()(
      z
        .object({
          profileId: id,
          mobile: z.string().max(64),
          content: z.string().max(2000),
          templateId: id.nullable().optional(),
        })
        .strict(),
    ),
    'messages.refreshStatus': op<MessageRecord>()(z.object({ id: messageId }).strict()),
    /**
     * A deliberate new send of the same text to the same number, after a person confirmed it
     * (the original's outcome was unknown, or its call failed). Never automatic.
     */
    'messages.sendAgain': op<SendView>()(z.object({ id: messageId, confirm: z.literal(true, { error: 'confirm-required' }) }).strict()),
    'messages.recents': op<RecentsView>()(none),
    /** Asks the provider about any smsid (also ones sent elsewhere). */
    'messages.queryStatus': op<StatusView>()(z.object({ profileId: id, smsid: z.string().trim().min(1, 'smsid-required').max(128) }).strict()),
    'messages.get': op<MessageDetail>()(z.object({ id: messageId }).strict()),

    'history.query': op<MessageRecord[]>()(
      z
        .object({
          limit: z.number().int().min(1).max(1000).optional(),
          mobile: z.string().max(20).optional(),
          state: z.enum(CALL_STATES).optional(),
          outcome: z.enum(OUTCOMES).optional(),
        })
        .strict()
        .optional(),
    ),

    /** A page of history (keyset pagination: pass back `nextCursor` with the same filter and order). */
    'history.page': op<HistoryPage>()(
      z
        .object({
          filter: historyFilter.default({}),
          limit: z.number().int().min(1).max(1000).optional(),
          cursor: z.string().max(1000).nullable().optional(),
          order: z.enum(['newest', 'oldest']).optional(),
          withTotal: z.boolean().optional(),
        })
        .strict(),
    ),
    /** Calls per day by outcome, and units spent, for the chosen range (the overview chart). */
    'history.overview': op<Overview>()(
      z.object({ from: z.number().int().min(0), to: z.number().int().min(0), profileId: id.nullable().optional(), utcOffsetMinutes }).strict(),
    ),
    /** The filtered history as CSV (UTF-8 with BOM), at most `limit` rows (default 100,000). */
    'history.exportCsv': op<{ csv: string; rows: number; capped: boolean }>()(
      z.object({ filter: historyFilter.default({}), lang: z.enum(['zh-CN', 'en']), utcOffsetMinutes, limit: z.number().int().min(1).max(1_000_000).optional() }).strict(),
    ),

    'exchanges.list': op<ExchangePage>()(
      z
        .object({
          messageId: messageId.optional(),
          operation: z.enum(['send', 'status', 'balance', 'raw']).optional(),
          from: z.number().int().min(0).optional(),
          to: z.number().int().min(0).optional(),
          limit: z.number().int().min(1).max(1000).optional(),
          cursor: z.string().max(1000).nullable().optional(),
          order: z.enum(['newest', 'oldest']).optional(),
        })
        .strict(),
    ),
    'exchanges.get': op<ExchangeRecord>()(z.object({ id: messageId }).strict()),
    /** The exchange's request as cURL, redacted (the key shows as [REDACTED]). */
    'exchanges.curl': op<{ command: string }>()(z.object({ id: messageId }).strict()),
    /**
     * Puts the request as cURL WITH the real key on the clipboard, from main: the key never comes
     * back to the renderer. Needs an explicit confirmation.
     */
    'exchanges.copyCurlWithKey': op<{ copied: true }>()(z.object({ id: messageId, confirm: z.literal(true, { error: 'confirm-required' }) }).strict()),
    /** Selected exchanges as a HAR 1.2 file (redacted: no API Key). */
    'exchanges.exportHar': op<{ json: string; entries: number }>()(z.object({ ids: z.array(messageId).min(1).max(10_000) }).strict()),

    /**
     * The raw console: any request to the profile's base URL. Credentials (account, password) are
     * filled in main and may not be typed into the fields.
     */
    'console.send': op<ConsoleResult>()(
      z
        .object({
          profileId: id,
          path: z.string().trim().regex(/^\/[\w\-./]*$/, 'path-invalid').max(200),
          fields: z
            .record(z.string().trim().min(1).max(64), z.string().max(2000))
            .refine((f) => Object.keys(f).length <= 30, 'too-many-fields')
            .refine((f) => !Object.keys(f).some((k) => ['account', 'password'].includes(k.toLowerCase())), 'credentials-in-fields'),
          format: z.enum(['json', 'xml']).default('json'),
          signing: z.enum(['profile', 'off', 'spec', 'apisix']).default('profile'),
        })
        .strict(),
    ),

    'store.status': op<StoreStatus>()(none),
    'store.setRetention': op<RetentionSettings>()(
      z
        .object({
          exchangeDays: z.number().int().min(1, 'retention-days-range').max(36_500, 'retention-days-range').nullable(),
          exchangeMaxBytes: z.number().int().min(1024 * 1024, 'retention-size-range').max(1024 ** 4, 'retention-size-range').nullable(),
        })
        .strict(),
    ),
    'store.applyRetention': op<RetentionResult>()(none),
    'store.vacuum': op<VacuumResult>()(none),

    /** Reads a spreadsheet (CSV or XLSX, sent as base64), maps its columns and validates every row. */
    'bulk.open': op<ImportView>()(
      z
        .object({
          templateId: id,
          file: z.object({ name: z.string().trim().min(1).max(255), base64: z.string().max(40_000_000, 'file-too-large') }).strict(),
          mapping: mapping.optional(),
          profileId: id.optional(),
        })
        .strict(),
    ),
    'bulk.remap': op<ImportView>()(z.object({ importId: z.string().max(64), mapping, templateId: id.optional() }).strict()),
    'bulk.issues': op<RowIssue[]>()(
      z.object({ importId: z.string().max(64), kind: z.enum(ISSUE_KINDS).optional(), offset: z.number().int().min(0).optional(), limit: z.number().int().min(1).max(1000).optional() }).strict(),
    ),
    'bulk.create': op<BatchRecord>()(
      z.object({ importId: z.string().max(64), profileId: id, duplicates: z.enum(['none', 'same-text', 'same-mobile']), name: z.string().trim().max(100).optional() }).strict(),
    ),
    'bulk.discard': op<{ discarded: boolean }>()(z.object({ importId: z.string().max(64) }).strict()),
    'bulk.list': op<BatchRecord[]>()(z.object({ limit: z.number().int().min(1).max(500).optional() }).strict().optional()),
    'bulk.progress': op<BatchProgress>()(z.object({ batchId }).strict()),
    'bulk.start': op<BatchProgress>()(z.object({ batchId }).strict()),
    'bulk.pause': op<BatchProgress>()(z.object({ batchId }).strict()),
    'bulk.resume': op<BatchProgress>()(z.object({ batchId }).strict()),
    'bulk.cancel': op<BatchProgress>()(z.object({ batchId }).strict()),
    'bulk.items': op<BatchItemView[]>()(
      z.object({ batchId, status: z.enum(ITEM_STATUSES).optional(), offset: z.number().int().min(0).optional(), limit: z.number().int().min(1).max(1000).optional() }).strict(),
    ),
    /** Items whose outcome is unknown (in flight when Callout stopped, or a timeout): for a person to decide. */
    'bulk.unknown': op<BatchItemView[]>()(z.object({ batchId }).strict()),
    /** Sends chosen unknown items again: only with a person's confirmation. */
    'bulk.requeue': op<{ requeued: number }>()(z.object({ batchId, itemIds: z.array(z.number().int().positive()).min(1).max(100_000), confirm: z.literal(true, { error: 'confirm-required' }) }).strict()),
    'bulk.skip': op<{ skipped: number }>()(z.object({ batchId, itemIds: z.array(z.number().int().positive()).min(1).max(100_000) }).strict()),
    'bulk.export': op<{ fileName: string; csv: string }>()(z.object({ batchId }).strict()),
    'bulk.remove': op<{ removed: boolean }>()(z.object({ batchId }).strict()),
    /** Lines bought from the provider: each allows 20 concurrent calls and about 2,000 an hour. */
    'profiles.setLines': op<{ lines: number }>()(z.object({ id, lines: z.number().int().min(1, 'lines-range').max(100, 'lines-range') }).strict()),

    'contacts.list': op<ContactRecord[]>()(none),
    'contacts.search': op<ContactMatch[]>()(z.object({ query: z.string().max(100), limit: z.number().int().min(1).max(100).optional() }).strict()),
    'contacts.save': op<ContactRecord>()(
      z
        .object({
          id: contactId.optional(),
          name: z.string().trim().min(1, 'name-required').max(60, 'name-too-long'),
          mobile: z.string().max(40),
          favourite: z.boolean().optional(),
          note: z.string().max(500).optional(),
        })
        .strict(),
    ),
    'contacts.remove': op<{ removed: boolean }>()(z.object({ id: contactId }).strict()),
    'contacts.setFavourite': op<ContactRecord>()(z.object({ id: contactId, favourite: z.boolean() }).strict()),
    'contacts.groups': op<ContactGroupRecord[]>()(none),
    /** A group's members in calling order (an escalation list: call A, if no answer call B...). */
    'contacts.saveGroup': op<ContactGroupRecord>()(
      z.object({ id: z.number().int().positive().optional(), name: z.string().trim().min(1, 'name-required').max(60), memberIds: z.array(contactId).max(50) }).strict(),
    ),
    'contacts.removeGroup': op<{ removed: boolean }>()(z.object({ id: z.number().int().positive() }).strict()),

    /** What a dial would do, with any per-number limit or quiet hours that refuse it (nothing is sent). */
    'dial.plan': op<DialPlan>()(dialRequest),
    'dial.start': op<DialStart>()(dialRequest),
    'dial.cancel': op<{ cancelled: boolean }>()(z.object({ runId: z.string().max(64) }).strict()),
    'dial.active': op<DialProgress[]>()(none),
    'dial.settings': op<DialSettingsRecord>()(z.object({ profileId: id.nullable().optional() }).strict().optional()),
    'dial.saveSettings': op<DialSettingsRecord>()(
      z
        .object({
          scope: z.union([z.literal('*'), id]),
          perMinute: z.number().int().min(1).max(100).nullable(),
          perHour: z.number().int().min(1).max(1000).nullable(),
          perDay: z.number().int().min(1).max(10_000).nullable(),
          quietStart: hhmm.nullable(),
          quietEnd: hhmm.nullable(),
        })
        .strict(),
    ),

    'balance.query': op<BalanceView>()(z.object({ profileId: id }).strict()),

    'signature.compute': op<SignStepsView>()(
      z
        .object({
          apiId: z.string().min(1).max(128),
          method: z.enum(['GET', 'POST']),
          url: z.url({ protocol: /^https?$/ }).max(4096),
          date: z.string().max(64).optional(),
          variant: z.enum(['spec', 'apisix']).default('spec'),
          key: signatureKey,
        })
        .strict(),
    ),
    'signature.verify': op<VerifyView>()(
      z
        .object({
          method: z.enum(['GET', 'POST']),
          url: z.url({ protocol: /^https?$/ }).max(4096),
          host: z.string().max(300).optional(),
          date: z.string().max(64).nullable().optional(),
          authorization: z.string().max(4096).nullable().optional(),
          now: z.string().max(64).optional(),
          variant: z.enum(['spec', 'apisix', 'any']).default('spec'),
          key: signatureKey,
        })
        .strict(),
    ),
    'signature.diagnose': op<Diagnosis>()(
      z
        .object({
          ...signatureInputs,
          key: signatureKey,
          expectedApiId: z.string().max(128).optional(),
          variant: z.enum(['spec', 'apisix', 'any']).default('spec'),
          now: z.string().max(64).optional(),
        })
        .strict(),
    ),
    /** Reads a pasted request: raw HTTP, a cURL command, or just its headers. */
    'signature.parseRequest': op<ParseCapturedResult>()(
      z.object({ text: z.string().max(200_000), defaults: z.object({ url: z.string().max(4096).optional(), method: z.string().max(16).optional() }).strict().optional() }).strict(),
    ),
    /** The current case as a test vector file (a profile's key is never written: it becomes a keyRef). */
    'signature.exportVector': op<{ json: string }>()(
      z
        .object({
          name: z.string().trim().min(1).max(120),
          apiId: z.string().min(1).max(128),
          method: z.enum(['GET', 'POST']),
          url: z.url({ protocol: /^https?$/ }).max(4096),
          date: z.string().max(64),
          variant: z.enum(['spec', 'apisix']),
          key: signatureKey,
        })
        .strict(),
    ),
    /** Checks every vector of a file; vectors that name a profile key are checked with that profile's key, in main. */
    'signature.checkVectors': op<VectorCheckView>()(z.object({ text: z.string().max(5_000_000) }).strict()),
    /** The local clock against a server's Date header (a profile's base URL or the sandbox). */
    'signature.probeClock': op<ClockProbe>()(z.object({ profileId: id }).strict()),
    /** Asks the profile's gateway, with a harmless balance query, which string-to-sign variant it accepts. */
    'signature.probeVariant': op<VariantProbeView>()(z.object({ profileId: id }).strict()),
  },
  events: {
    /** A message changed (outcome, call state, duration). Channel names say their direction. */
    messageUpdated: event<'main:message-updated', MessageRecord>('main:message-updated'),
    /** A batch's progress (at most a few times a second, and at once when its status changes). */
    bulkProgress: event<'main:bulk-progress', BatchProgress>('main:bulk-progress'),
    /** A quick dial's progress: calling, ended, waiting for the next attempt, next person, done. */
    dialProgress: event<'main:dial-progress', DialProgress>('main:dial-progress'),
    /** The OS-wide quick-dial shortcut was pressed: open the palette. */
    quickDial: event<'main:quick-dial', Record<string, never>>('main:quick-dial'),
  },
} as const;

export type Contract = typeof contract;
export type Channel = keyof Contract['channels'];
export type EventName = keyof Contract['events'];
export type EventChannel = Contract['events'][EventName]['channel'];
export type InputOf<C extends Channel> = z.input<Contract['channels'][C]['input']>;
export type ParsedInputOf<C extends Channel> = z.output<Contract['channels'][C]['input']>;
export type OutputOf<C extends Channel> = Contract['channels'][C]['output'];
export type PayloadOf<E extends EventName> = Contract['events'][E]['payload'];

export const CHANNELS = Object.keys(contract.channels) as Channel[];
export const EVENTS = Object.keys(contract.events) as EventName[];
/** Event name → the IPC channel main sends it on. */
export const EVENT_CHANNELS = Object.fromEntries(EVENTS.map((e) => [e, contract.events[e].channel])) as { [E in EventName]: Contract['events'][E]['channel'] };

/** Stable error codes: the renderer shows them in the user's language. */
export type ErrorCode =
  | 'invalid-input'
  | 'unknown-channel'
  | 'forbidden-sender'
  | 'not-found'
  | 'no-key'
  | 'keychain-unavailable'
  | 'invalid-mobile'
  | 'invalid-content'
  | 'invalid-template'
  | 'send-in-flight'
  | 'builtin-profile'
  | 'database-too-new'
  | 'internal';

export interface IpcError {
  code: ErrorCode;
  message: string;
  /** Field paths and their problems, for invalid input. */
  issues?: { path: string; message: string }[];
}

export type IpcResult<T> = { ok: true; value: T } | { ok: false; error: IpcError };

type GroupOf<C> = C extends `${infer G}.${string}` ? G : never;
type ArgsOf<C extends Channel> = undefined extends InputOf<C> ? [input?: InputOf<C>] : [input: InputOf<C>];

/**
 * The typed API the preload exposes as window.callout: one named method per operation, grouped
 * by the channel's first part (`callout.messages.send(...)`), and `callout.on.<event>(listener)`
 * returning its unsubscribe function.
 */
export type CalloutApi = {
  [G in GroupOf<Channel>]: {
    [C in Channel as C extends `${G}.${infer M}` ? M : never]: (...args: ArgsOf<C>) => Promise<IpcResult<OutputOf<C>>>;
  };
} & {
  on: { [E in EventName]: (listener: (payload: PayloadOf<E>) => void) => () => void };
};

/** Helper for a call state in events without importing the domain module. */
export type { CallState };
