// Profiles: where and as whom to call a provider. The key is write-only: set, replace, delete, "is set".
import { z } from 'zod';
import { event, id, none, op, SIGNING_MODES, type SigningMode } from './define';
import { EVENT_CHANNELS } from './channels';

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
  builtin: boolean;
  hasKey: boolean;
  /** The last word of the provider on the key (see KeyCheck). */
  keyCheck: KeyCheck | null;
  createdAt: number;
  updatedAt: number;
}

export const profilesOps = {
  'profiles.list': op<ProfileView[]>()(none),
  'profiles.save': op<ProfileView>()(profileInput),
  'profiles.remove': op<{ removed: boolean }>()(z.object({ id }).strict()),
  /** Write-only: the key goes to the keychain (or the session store) and never comes back. */
  'profiles.setKey': op<ProfileView>()(z.object({ id, apiKey: z.string().min(1, 'key-required').max(256, 'key-too-long') }).strict()),
  'profiles.deleteKey': op<ProfileView>()(z.object({ id }).strict()),
  /** Lines bought from the provider: each allows 20 concurrent calls and about 2,000 an hour. */
  'profiles.setLines': op<{ lines: number }>()(z.object({ id, lines: z.number().int().min(1, 'lines-range').max(100, 'lines-range') }).strict()),
};

export const profilesEvents = {
  /** A profile's view changed in main (the provider accepted or rejected its key). */
  profileUpdated: event<ProfileView>()(EVENT_CHANNELS.profileUpdated),
};
