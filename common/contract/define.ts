// The building blocks every feature's part of the contract uses: how an operation and an event are
// declared, and the small schemas several features share.
import { z } from 'zod';

/** Declares an operation: `op<Output>()(inputSchema)`. The schema checks input at the boundary; the output type is a phantom. */
export function op<O>() {
  return <I extends z.ZodType>(input: I): { input: I; output: O } => ({ input, output: undefined as unknown as O });
}

/** Declares a push event from main on its channel (names in channels.ts). */
export function event<P>() {
  return <N extends `main:${string}`>(channel: N): { channel: N; payload: P } => ({ channel, payload: undefined as unknown as P });
}

export const none = z.object({}).strict().optional();
export const id = z.string().trim().min(1, 'required').max(64);
export const messageId = z.number().int().positive();
export const utcOffsetMinutes = z.number().int().min(-840).max(840);
export const lang = z.enum(['zh-CN', 'en']);

export const SIGNING_MODES = ['off', 'spec', 'apisix'] as const;
export type SigningMode = (typeof SIGNING_MODES)[number];

/** The key used to sign in the workbench: a profile's (stays in main) or one typed for this case. */
export const signatureKey = z.union([z.object({ profileId: id }).strict(), z.object({ adHoc: z.string().min(1, 'key-required').max(256) }).strict()]);

/** An archive file in the data directory's archives folder, by name (never a path). */
export const archiveName = z.string().min(1).max(120);
