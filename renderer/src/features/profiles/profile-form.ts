// The profile form's model: the values the form edits (timeouts in seconds), their conversion to
// the contract's input (milliseconds), and the field rules, checked with the contract's own schema
// so the client and main agree on what is valid.
// zod is configured where the contract's schemas are used (the profiles' chunk), not in the first one.
import '../../app/zod-config';
import type { FormInstance, FormRule } from 'antd';
import type { TFunction } from 'i18next';
import { profileInput, type ProfileInput, type ProfileView, type SigningMode } from '../../../../common/contract';
import { describeIssue } from '../../app/api';

export interface ProfileFormValues {
  name: string;
  baseUrl: string;
  apiId: string;
  signing: SigningMode;
  format: 'json' | 'xml';
  connectTimeoutSeconds: number | null;
  totalTimeoutSeconds: number | null;
  lowBalanceThreshold: number | null;
  /** "Send my key unencrypted": consent to plain http:// to a host that is not this machine (shown only then). */
  sendKeyUnencrypted?: boolean;
  /** The key entered again when the address moves to another origin (shown only then; empty: the key is removed). */
  apiKey?: string;
}

export type FormField = keyof ProfileFormValues;

/** Contract path → form field (the timeouts are edited in seconds under their own names). */
const FIELD_OF_PATH: Record<string, FormField> = {
  name: 'name',
  baseUrl: 'baseUrl',
  apiId: 'apiId',
  signing: 'signing',
  format: 'format',
  connectTimeoutMs: 'connectTimeoutSeconds',
  totalTimeoutMs: 'totalTimeoutSeconds',
  lowBalanceThreshold: 'lowBalanceThreshold',
  sendKeyUnencrypted: 'sendKeyUnencrypted',
  apiKey: 'apiKey',
};

export function fieldOfPath(path: string): FormField | null {
  return FIELD_OF_PATH[path] ?? null;
}

export const TIMEOUT_LIMITS = {
  connect: { min: 0.5, max: 60 },
  total: { min: 1, max: 300 },
} as const;

export const THRESHOLD_MAX = 10_000_000;

const DEFAULTS: ProfileFormValues = {
  name: '',
  baseUrl: '',
  apiId: '',
  signing: 'off',
  format: 'json',
  connectTimeoutSeconds: 5,
  totalTimeoutSeconds: 15,
  lowBalanceThreshold: null,
  sendKeyUnencrypted: false,
  apiKey: '',
};

const toSeconds = (ms: number) => Math.round(ms / 100) / 10;
const toMs = (seconds: number) => Math.round(seconds * 1000);

export function formValuesOf(profile: ProfileView | null): ProfileFormValues {
  if (!profile) return { ...DEFAULTS };
  return {
    name: profile.name,
    baseUrl: profile.baseUrl,
    apiId: profile.apiId,
    signing: profile.signing,
    format: profile.format,
    connectTimeoutSeconds: toSeconds(profile.connectTimeoutMs),
    totalTimeoutSeconds: toSeconds(profile.totalTimeoutMs),
    lowBalanceThreshold: profile.lowBalanceThreshold,
    sendKeyUnencrypted: profile.sendKeyUnencrypted,
    apiKey: '',
  };
}

export function inputOf(values: ProfileFormValues, id: string | undefined): ProfileInput {
  return {
    ...(id ? { id } : {}),
    name: values.name.trim(),
    baseUrl: values.baseUrl.trim(),
    apiId: values.apiId.trim(),
    signing: values.signing,
    format: values.format,
    connectTimeoutMs: toMs(values.connectTimeoutSeconds ?? DEFAULTS.connectTimeoutSeconds ?? 5),
    totalTimeoutMs: toMs(values.totalTimeoutSeconds ?? DEFAULTS.totalTimeoutSeconds ?? 15),
    lowBalanceThreshold: values.lowBalanceThreshold ?? null,
    // Fields shown only in some cases (the consent, the key entered again) are absent otherwise.
    sendKeyUnencrypted: values.sendKeyUnencrypted ?? false,
    ...(values.apiKey?.trim() ? { apiKey: values.apiKey.trim() } : {}),
  };
}

/** A problem main reported for a field, kept until the user changes that field's value. */
export interface ServerIssue {
  /** As main sent it; translated each time it is shown, so it follows a language switch. */
  issue: { path: string; message: string };
  /** The value the field had when it was submitted. */
  value: unknown;
}

export type ServerIssues = Partial<Record<FormField, ServerIssue>>;

type Shape = typeof profileInput.shape;

/** A rule that checks a value with the contract's schema for `path` (after `convert`). */
function schemaRule(t: TFunction, path: keyof Shape, convert: (value: unknown) => unknown = (v) => v): FormRule {
  return {
    validator: async (_rule, value: unknown) => {
      const checked = profileInput.shape[path].safeParse(convert(value));
      if (!checked.success) throw new Error(describeIssue(t, checked.error.issues[0]?.message ?? ''));
    },
  };
}

/** The problem main reported for `field`, while the field still holds the value that was submitted. */
function serverRule(t: TFunction, field: FormField, issues: () => ServerIssues): FormRule {
  return {
    validator: async (_rule, value: unknown) => {
      const reported = issues()[field];
      if (reported && Object.is(reported.value, value)) throw new Error(describeIssue(t, reported.issue.message));
    },
  };
}

/** Every field's rules. `issues` is read at validation time, so main's problems show in place. */
export function profileRules(t: TFunction, form: FormInstance<ProfileFormValues>, issues: () => ServerIssues): Record<FormField, FormRule[]> {
  const withServer = (field: FormField, rules: FormRule[]) => [...rules, serverRule(t, field, issues)];
  // An empty timeout is checked as null (the schema's default is only for a value left out).
  const seconds = (v: unknown) => (typeof v === 'number' ? toMs(v) : null);
  return {
    name: withServer('name', [schemaRule(t, 'name', (v) => v ?? '')]),
    baseUrl: withServer('baseUrl', [schemaRule(t, 'baseUrl', (v) => (typeof v === 'string' ? v.trim() : ''))]),
    apiId: withServer('apiId', [schemaRule(t, 'apiId', (v) => v ?? '')]),
    signing: withServer('signing', [schemaRule(t, 'signing')]),
    format: withServer('format', [schemaRule(t, 'format')]),
    connectTimeoutSeconds: withServer('connectTimeoutSeconds', [schemaRule(t, 'connectTimeoutMs', seconds)]),
    totalTimeoutSeconds: withServer('totalTimeoutSeconds', [
      schemaRule(t, 'totalTimeoutMs', seconds),
      {
        validator: async (_rule, value: unknown) => {
          const connect = form.getFieldValue('connectTimeoutSeconds') as unknown;
          if (typeof value === 'number' && typeof connect === 'number' && value < connect) {
            throw new Error(describeIssue(t, 'timeout-order'));
          }
        },
      },
    ]),
    lowBalanceThreshold: withServer('lowBalanceThreshold', [schemaRule(t, 'lowBalanceThreshold', (v) => v ?? null)]),
    sendKeyUnencrypted: withServer('sendKeyUnencrypted', []),
    apiKey: withServer('apiKey', []),
  };
}
