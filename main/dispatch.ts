import { ZodError } from 'zod';
import { contract, type Channel, type ErrorCode, type IpcError, type IpcResult } from '../common/contract';
import type { Handlers } from './handlers';
import { ProfileError } from './profiles/profile-service';
import { NewerDatabaseError } from './store/database';
import { TemplateError } from './store/template-repository';
import { ValidationError } from './voice/message-service';
import { SecretStoreError } from './secrets/secret-store';
import { HistoryError } from './store/history-repository';
import { RetentionError } from './store/retention';
import { ImportError } from './bulk/import';
import { BulkError } from './bulk/queue';
import { ContactError } from './dial/contacts';
import { DialError } from './dial/dialer';

const isChannel = (c: unknown): c is Channel => typeof c === 'string' && Object.prototype.hasOwnProperty.call(contract.channels, c);

/** Turns anything thrown by a handler into a stable, user-presentable error. Never a stack, never a secret. */
export function toIpcError(error: unknown): IpcError {
  if (error instanceof ZodError) {
    return {
      code: 'invalid-input',
      message: `Invalid input: ${error.issues.map((i) => `${i.path.join('.') || '(input)'}: ${i.message}`).join('; ')}`,
      issues: error.issues.map((i) => ({ path: i.path.join('.'), message: i.message })),
    };
  }
  if (error instanceof ProfileError) return { code: error.code, message: error.message, ...(error.issues ? { issues: error.issues } : {}) };
  if (error instanceof ValidationError) {
    const code: ErrorCode = error.code === 'unknown-message' || error.code === 'not-accepted' ? 'not-found' : error.code;
    return { code, message: error.message, issues: error.detail ? [{ path: error.code === 'invalid-mobile' ? 'mobile' : 'content', message: error.detail }] : undefined };
  }
  if (error instanceof TemplateError) return { code: error.code === 'unknown-template' ? 'not-found' : 'invalid-template', message: error.message };
  if (error instanceof SecretStoreError) return { code: error.code === 'invalid-secret' ? 'invalid-input' : 'keychain-unavailable', message: error.message };
  if (error instanceof ImportError || error instanceof ContactError || error instanceof DialError) {
    return { code: error.code === 'not-found' ? 'not-found' : 'invalid-input', message: error.message, ...(error.issues.length ? { issues: error.issues } : {}) };
  }
  if (error instanceof BulkError) return { code: error.code === 'not-found' ? 'not-found' : 'invalid-input', message: error.message };
  if (error instanceof HistoryError || error instanceof RetentionError) return { code: 'invalid-input', message: error.message };
  if (error instanceof NewerDatabaseError) return { code: 'database-too-new', message: error.message };
  return { code: 'internal', message: 'Something went wrong inside Callout; the details are in the log.' };
}

/**
 * Checks the channel, parses the input with its schema, runs the handler, and wraps the outcome.
 * A bad payload gets a clear error, never a crash.
 */
export async function dispatch(handlers: Handlers, channel: unknown, input: unknown, log: (e: unknown) => void = console.error): Promise<IpcResult<unknown>> {
  if (!isChannel(channel)) return { ok: false, error: { code: 'unknown-channel', message: `Unknown operation "${String(channel).slice(0, 80)}".` } };
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
