// The browser transport of `callout ui`: what the page (renderer/src/app/browser-transport.ts) and
// the server (main/ui/server.ts) agree on. Zod-free and type-only apart from a few names, like
// contract/channels.ts. One WebSocket carries both directions as JSON text frames:
//   page → server   {"id": 7, "channel": "messages.send", "input": {...}}   (one call of window.callout)
//   server → page   {"id": 7, "result": {"ok": true, "value": ...}}         (its answer, an IpcResult)
//   server → page   {"event": "main:message-updated", "payload": {...}}     (a push event)
import type { IpcResult } from './contract/errors';

/** Where the page opens its WebSocket (same origin as the page). */
export const CONSOLE_SOCKET_PATH = '/ws';

/** The query parameter that carries the one-time token of a link printed by `callout ui`. */
export const CONSOLE_TOKEN_PARAM = 'token';

export interface CallFrame {
  id: number;
  channel: string;
  input?: unknown;
}

export interface ResultFrame {
  id: number;
  result: IpcResult<unknown>;
}

export interface EventFrame {
  event: string;
  payload: unknown;
}

export type ServerFrame = ResultFrame | EventFrame;

/** Close codes the server uses (RFC 6455 and the 4000–4999 private range). */
export const CONSOLE_CLOSE = {
  /** The server is stopping. */
  goingAway: 1001,
  /** A frame that is not a call (not JSON, not text, wrong shape). */
  badFrame: 1008,
  /** The page's session ended (idle too long): a new link from `callout ui` opens a new one. */
  sessionEnded: 4401,
} as const;
