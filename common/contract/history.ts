// History: messages and exchanges, found and exported; the raw console; the store's retention.
import { z } from 'zod';
import { CALL_STATES, OUTCOMES } from '../domain/status';
import type { ExchangeRecord } from '../records';
import type { ExchangePage, HistoryPage, Overview, RetentionResult, RetentionSettings, VacuumResult } from '../history-types';
import { id, lang, messageId, none, op, utcOffsetMinutes } from './define';
import type { FailureView } from './send';

export interface StoreStatus {
  retention: RetentionSettings;
  /** Bytes of captured exchanges (headers and bodies) and their count. */
  usage: { bytes: number; exchanges: number };
  recovered: { movedTo: string; reason: string; kind?: 'database' | 'wal' } | null;
}

export interface ConsoleResult {
  exchange: ExchangeRecord;
  /** The reply as parsed (JSON or XML), when it could be read. */
  reply: Record<string, unknown> | null;
  failure: FailureView | null;
}

export const historyFilter = z
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

export const historyOps = {
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
    z.object({ filter: historyFilter.default({}), lang, utcOffsetMinutes, limit: z.number().int().min(1).max(1_000_000).optional() }).strict(),
  ),

  'exchanges.list': op<ExchangePage>()(
    z
      .object({
        messageId: messageId.optional(),
        operation: z.enum(['send', 'status', 'balance', 'raw', 'receipt']).optional(),
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
};
