// On-call quick dial: contacts, groups (escalation lists), per-number limits and quiet hours.
import { z } from 'zod';
import type { ContactGroupRecord, ContactMatch, ContactRecord, DialPlan, DialProgress, DialSettingsRecord, DialStart } from '../bulk-types';
import { event, id, none, op } from './define';
import { EVENT_CHANNELS } from './channels';

const contactId = z.number().int().positive();
const hhmm = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'time-invalid');

const dialRequest = z
  .object({
    profileId: id,
    targets: z
      .array(z.union([z.object({ contactId }).strict(), z.object({ mobile: z.string().max(40) }).strict()]))
      .max(20)
      .optional(),
    groupId: z.number().int().positive().optional(),
    templateId: id.nullable().optional(),
    values: z.array(z.string().max(500)).max(50).optional(),
    content: z.string().max(2000).optional(),
    attempts: z.number().int().min(1, 'attempts-range').max(10, 'attempts-range').optional(),
    pauseSeconds: z.number().int().min(0, 'pause-range').max(3600, 'pause-range').optional(),
    override: z.boolean().optional(),
  })
  .strict();

export const dialOps = {
  'contacts.list': op<ContactRecord[]>()(none),
  /** The one contact a name, `#id` or number means (the CLI's `callout dial 王工`); ambiguous or unknown is an error. */
  'contacts.resolve': op<ContactRecord>()(z.object({ query: z.string().trim().min(1).max(100) }).strict()),
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
    z
      .object({ id: z.number().int().positive().optional(), name: z.string().trim().min(1, 'name-required').max(60), memberIds: z.array(contactId).max(50) })
      .strict(),
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
};

export const dialEvents = {
  /** A quick dial's progress: calling, ended, waiting for the next attempt, next person, done. */
  dialProgress: event<DialProgress>()(EVENT_CHANNELS.dialProgress),
};
