// Connects the handler table to Electron's ipcMain. Thin on purpose: the checks that matter
// (sender frame, input schema, error shape) are plain functions, tested without Electron.
import { CHANNELS, type IpcResult } from '../common/contract';
import { dispatch } from './dispatch';
import type { Handlers } from './handlers';

/** The parts of Electron's IpcMainInvokeEvent this module reads. */
export interface InvokeEventLike {
  senderFrame: { url: string; parent: unknown } | null;
}

export interface IpcMainLike {
  handle(channel: string, listener: (event: InvokeEventLike, input: unknown) => Promise<unknown>): void;
  removeHandler(channel: string): void;
}

/** Only the app's own top-level page may call: not a subframe, not a navigated-away page. */
export function trustedSender(isAppUrl: (url: string) => boolean) {
  return (event: InvokeEventLike): boolean => {
    const frame = event.senderFrame;
    return frame !== null && frame.parent === null && isAppUrl(frame.url);
  };
}

export function registerIpcHandlers(
  ipcMain: IpcMainLike,
  handlers: Handlers,
  isTrusted: (event: InvokeEventLike) => boolean,
  log: (error: unknown) => void = console.error,
): () => void {
  for (const channel of CHANNELS) {
    ipcMain.handle(channel, async (event, input): Promise<IpcResult<unknown>> => {
      if (!isTrusted(event)) {
        return { ok: false, error: { code: 'forbidden-sender', params: {} } };
      }
      return dispatch(handlers, channel, input, log);
    });
  }
  return () => CHANNELS.forEach((c) => ipcMain.removeHandler(c));
}
