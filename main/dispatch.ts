import { contract, type Channel, type IpcResult } from '../common/contract';
import { toIpcError } from './errors';
import type { Handlers } from './handlers';

const isChannel = (c: unknown): c is Channel => typeof c === 'string' && Object.prototype.hasOwnProperty.call(contract.channels, c);

/**
 * Checks the channel, parses the input with its schema, runs the handler, and wraps the outcome.
 * A bad payload gets a clear error, never a crash.
 */
export async function dispatch(handlers: Handlers, channel: unknown, input: unknown, log: (e: unknown) => void = console.error): Promise<IpcResult<unknown>> {
  if (!isChannel(channel)) return { ok: false, error: { code: 'unknown-channel', params: {} } };
  try {
    const parsed: unknown = contract.channels[channel].input.parse(input);
    const handler = handlers[channel] as (i: unknown) => Promise<unknown>;
    return { ok: true, value: await handler(parsed) };
  } catch (error) {
    const ipcError = toIpcError(error);
    if (ipcError.code === 'internal') log(error);
    return { ok: false, error: ipcError };
  }
}
