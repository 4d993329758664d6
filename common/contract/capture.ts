// The capture proxy: started and stopped by the app's switch and `callout capture`; what it records
// lands in history (exchanges.list with `captured`).
import { z } from 'zod';
import type { CaptureStatus } from '../capture';
import { EVENT_CHANNELS } from './channels';
import { event, id, none, op } from './define';

export const captureOps = {
  /**
   * Runs the proxy on 127.0.0.1 (`port`, or a free one) in front of `target`, checking with the key
   * of `profileId` (none: the signature and password are not checked).
   */
  'capture.start': op<CaptureStatus>()(
    z
      .object({
        target: z
          .string()
          .trim()
          .min(1, 'required')
          .max(2000)
          .regex(/^https?:\/\//i, 'url-invalid'),
        port: z.number().int().min(0).max(65535).optional(),
        profileId: id.nullable().optional(),
      })
      .strict(),
  ),
  'capture.stop': op<CaptureStatus>()(none),
  'capture.status': op<CaptureStatus>()(none),
};

export const captureEvents = {
  /** The proxy started, stopped or recorded an exchange (`exchangeId`; null when it could not be stored). */
  captureUpdated: event<{ status: CaptureStatus; exchangeId: number | null }>()(EVENT_CHANNELS.captureUpdated),
};
