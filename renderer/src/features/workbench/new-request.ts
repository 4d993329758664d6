// What a new raw request is for a profile, and whether a request places a call: both read with the
// profile's dialect (pure: no screen, no store).
import type { RawRequest } from '../../../../common/contract';
import { operationOfRequest, requestShape, type Dialect } from '../../../../common/dialects';

export const NEW_REQUEST: RawRequest = {
  method: 'POST',
  path: '/voice/balance',
  headers: [],
  omit: [],
  body: { kind: 'none' },
  credentials: 'body',
  format: 'json',
  signing: 'profile',
};

/** A new request for a profile: its dialect's balance query (the spec's by default), which places no call. */
export function newRequestFor(dialect: Dialect | null | undefined): RawRequest {
  if (!dialect?.request) return NEW_REQUEST;
  const shape = requestShape(dialect, 'balance');
  return {
    ...NEW_REQUEST,
    method: shape.method,
    path: shape.path,
    body: shape.body === 'form' ? { kind: 'form', fields: [] } : { kind: 'none' },
    credentials: shape.body === 'query' ? 'query' : 'body',
  };
}

/** The parts of the open request that say whether anyone touched it. */
export interface DraftState {
  request: RawRequest;
  dirty: boolean;
  savedId: number | null;
  name: string;
  assertions: readonly unknown[];
  captures: readonly unknown[];
}

/** Whether the open request is a new one nobody touched (for one of these dialects): it may follow the profile chosen. */
export function isUntouchedNew(d: DraftState, dialects: readonly (Dialect | null | undefined)[]): boolean {
  if (d.dirty || d.savedId !== null || d.name !== '' || d.assertions.length || d.captures.length) return false;
  const text = JSON.stringify(d.request);
  return [null, ...dialects].some((x) => JSON.stringify(newRequestFor(x)) === text);
}

/** Whether a path (with its query) is the dialect's send operation: a request that places a real call. */
export function sendsCall(dialect: Dialect | null | undefined, path: string): boolean {
  try {
    return (
      operationOfRequest(dialect ?? null, new URL(path.startsWith('/') ? path : `/${path}`, 'http://profile.invalid'), 'http://profile.invalid') === 'send'
    );
  } catch {
    return false;
  }
}
