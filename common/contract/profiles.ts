// Profiles: where and as whom to call a provider. The key is write-only: set, replace, delete, "is set".
import { z } from 'zod';
import { dialectSchema, type Dialect } from '../dialects/schema';
import { event, id, none, op, SIGNING_MODES, type SigningMode } from './define';
import { EVENT_CHANNELS } from './channels';

/** How a profile's calls are followed to their end: status queries, receipts the provider posts, or both. */
export const FOLLOW_MODES = ['poll', 'receipts', 'both'] as const;
export type FollowMode = (typeof FOLLOW_MODES)[number];

/** A profile's receipt listener: off (the profile polls), listening, held by another Callout process, or unable to listen. */
export type ListenerState = 'off' | 'listening' | 'elsewhere' | 'failed';

export const profileInput = z
  .object({
    id: id.optional(),
    name: z.string().trim().min(1, 'name-required').max(60, 'name-too-long'),
    baseUrl: z.url({ protocol: /^https?$/, error: 'base-url-invalid' }).max(2048),
    apiId: z.string().trim().min(1, 'api-id-required').max(128, 'api-id-too-long'),
    signing: z.enum(SIGNING_MODES).default('off'),
    format: z.enum(['json', 'xml']).default('json'),
    connectTimeoutMs: z
      .number({ error: 'connect-timeout-range' })
      .int('connect-timeout-range')
      .min(500, 'connect-timeout-range')
      .max(60_000, 'connect-timeout-range')
      .default(5_000),
    totalTimeoutMs: z
      .number({ error: 'total-timeout-range' })
      .int('total-timeout-range')
      .min(1_000, 'total-timeout-range')
      .max(300_000, 'total-timeout-range')
      .default(15_000),
    lowBalanceThreshold: z
      .number({ error: 'threshold-range' })
      .int('threshold-range')
      .min(0, 'threshold-range')
      .max(10_000_000, 'threshold-range')
      .nullable()
      .default(null),
    /**
     * A person ticked "send my key unencrypted": the key may travel over plain http:// to a host
     * that is not this machine. Without it such an address is refused (loopback http is fine).
     */
    sendKeyUnencrypted: z.boolean().default(false),
    /**
     * The key, entered again in the same save. A key belongs to the address (origin) it was entered
     * for: saving another origin removes the stored key unless a new one comes with it.
     */
    apiKey: z.string().min(1, 'key-required').max(256, 'key-too-long').optional(),
  })
  .strict();
export type ProfileInput = z.input<typeof profileInput>;

/**
 * What the provider last said about a profile's key, kept once in main for every screen: `ok` after
 * any reply with code 2, `rejected` after a 401 or a rejected signature (on a balance check, a send
 * or a status query), until the next good reply or a new key. null: not asked since the key was set
 * (or since Callout started).
 */
export interface KeyCheck {
  result: 'ok' | 'rejected';
  /** The provider's code (401), or null for a signature the gateway rejected (HTTP 401). */
  code: number | null;
  kind: 'credentials' | 'signature' | null;
  at: number;
}

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
  sendKeyUnencrypted: boolean;
  builtin: boolean;
  hasKey: boolean;
  /** The last word of the provider on the key (see KeyCheck). */
  keyCheck: KeyCheck | null;
  createdAt: number;
  updatedAt: number;
  /** The reply dialect this profile reads with. */
  dialect: Dialect;
  /** The built-in dialect's id when the profile uses one unchanged; null for a dialect of its own. */
  dialectId: string | null;
  follow: FollowMode;
  /** The receipt listener: where it listens, the address to give the provider (with its path secret), and whether it runs. */
  receipts: { host: string; port: number; url: string | null; state: ListenerState };
}

/** A profile's lines (each 20 calls at once, about 2,000 an hour) and whether they are lent while its calls wait for a redial. */
export interface ProfileLines {
  lines: number;
  /** The profile's setting. */
  lendLines: boolean;
  /** Lending stopped: the provider refused a send that started on a lent line (kept with the profile until it is set to lend again). */
  lendingStopped: boolean;
  /** When that refusal stopped lending (epoch ms), or null. */
  lendingStoppedAt: number | null;
}

/** What re-reading a profile's open calls with a new dialect changed. */
export interface DialectSaved {
  profile: ProfileView;
  /** Open calls whose state changed on re-reading. */
  reread: number;
}

/** What a save did: the profile, and whether its stored key was removed because its address moved to another origin. */
export interface ProfileSaveResult extends ProfileView {
  keyRemoved: boolean;
}

export const profilesOps = {
  'profiles.list': op<ProfileView[]>()(none),
  'profiles.save': op<ProfileSaveResult>()(profileInput),
  'profiles.remove': op<{ removed: boolean }>()(z.object({ id }).strict()),
  /** Write-only: the key goes to the keychain (or the session store) and never comes back. */
  'profiles.setKey': op<ProfileView>()(z.object({ id, apiKey: z.string().min(1, 'key-required').max(256, 'key-too-long') }).strict()),
  'profiles.deleteKey': op<ProfileView>()(z.object({ id }).strict()),
  /** The reply dialect: a built-in one by id, or one of the profile's own (a file, or the teach flow). Open calls are re-read with it. */
  'profiles.setDialect': op<DialectSaved>()(
    z.object({ id, dialect: z.union([z.object({ builtin: z.string().max(60) }).strict(), z.object({ custom: dialectSchema }).strict()]) }).strict(),
  ),
  /** How calls are followed (poll, receipts, both) and where the receipt listener listens; `newSecret` replaces the path secret. */
  'profiles.setFollow': op<ProfileView>()(
    z
      .object({
        id,
        follow: z.enum(FOLLOW_MODES),
        host: z.string().trim().min(1, 'listen-host').max(64, 'listen-host').optional(),
        port: z.number().int('listen-port').min(0, 'listen-port').max(65535, 'listen-port').optional(),
        newSecret: z.boolean().optional(),
      })
      .strict(),
  ),
  /** A profile's lines and whether they are lent while its calls wait for a redial. */
  'profiles.lines': op<ProfileLines>()(z.object({ id }).strict()),
  /**
   * Lines bought from the provider (each allows 20 concurrent calls and about 2,000 an hour), and
   * whether a line is lent while its call waits for the provider's redial. Either or both.
   */
  'profiles.setLines': op<ProfileLines>()(
    z.object({ id, lines: z.number().int().min(1, 'lines-range').max(100, 'lines-range').optional(), lendLines: z.boolean().optional() }).strict(),
  ),
};

export const profilesEvents = {
  /** A profile's view changed in main (the provider accepted or rejected its key). */
  profileUpdated: event<ProfileView>()(EVENT_CHANNELS.profileUpdated),
};
