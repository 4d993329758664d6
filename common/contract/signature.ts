// The signature workbench: build, verify and diagnose HMAC-SHA256 signatures; vectors; probes.
import { z } from 'zod';
import type { ClockProbe, Diagnosis, ParseCapturedResult, SignSteps, VariantProbe, VariantProbeResult, VectorCheck, VerifyReason } from '../signature-types';
import { id, op, signatureKey } from './define';

/**
 * A typed key Callout would not store in a profile (the same rule as for stored keys): the workbench
 * and the CLI compute with it anyway, and say so. null: a profile's key, or one Callout would store.
 */
export type KeyNote = 'empty' | 'too-short' | 'too-long' | 'control-characters' | null;

export type SignStepsView = SignSteps & { keyNote: KeyNote };
export type DiagnosisView = Diagnosis & { keyNote: KeyNote };

export interface VerifyView {
  valid: boolean;
  reason: VerifyReason | null;
  /** keyId from the Authorization header (null when it could not be read). */
  keyId: string | null;
  /** The API ID keyId was compared with (expectedApiId, or the profile's); null when none was known. */
  expectedApiId: string | null;
  skewSeconds: number | null;
  variant: 'spec' | 'apisix' | null;
  keyNote: KeyNote;
}

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

/** An API ID as it can stand in a Signature header: no double quote, no line break. */
const apiId = z
  .string()
  .min(1, 'api-id-required')
  .max(128, 'api-id-too-long')
  .regex(/^[^"\r\n]*$/, 'api-id-quote');

const signatureInputs = {
  method: z.string().trim().min(1).max(16),
  url: z.url({ protocol: /^https?$/, error: 'url-invalid' }).max(4096),
  host: z.string().max(300).optional(),
  date: z.string().max(64).nullable().optional(),
  authorization: z.string().max(4096).nullable().optional(),
};

export const signatureOps = {
  'signature.compute': op<SignStepsView>()(
    z
      .object({
        apiId,
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
        /** The API ID keyId must name; default the key's profile's. */
        expectedApiId: z.string().max(128).optional(),
      })
      .strict(),
  ),
  'signature.diagnose': op<DiagnosisView>()(
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
    z
      .object({
        text: z.string().max(200_000),
        defaults: z
          .object({ url: z.string().max(4096).optional(), method: z.string().max(16).optional() })
          .strict()
          .optional(),
      })
      .strict(),
  ),
  /** The current case as a test vector file (a profile's key is never written: it becomes a keyRef). */
  'signature.exportVector': op<{ json: string }>()(
    z
      .object({
        name: z.string().trim().min(1).max(120),
        apiId,
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
};
