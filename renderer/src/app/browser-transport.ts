// window.callout in a browser (`callout ui`), where there is no preload: the same object, built by
// the same builder from the same channel names (common/api.ts), over the console's WebSocket
// (common/console-transport.ts). A call is sent once and never again: if the connection drops before
// its answer comes, it fails like a lost bridge (a send may still have been placed; main records it).
// Which shell the page runs in (desktop or browser) and the connection's state live here too.
import { useSyncExternalStore } from 'react';
import { buildCalloutApi } from '../../../common/api';
import { CONSOLE_SOCKET_PATH, type CallFrame, type ServerFrame } from '../../../common/console-transport';
import { CHANNEL_NAMES, EVENT_CHANNELS } from '../../../common/contract/channels';
import type { CalloutApi } from '../../../common/contract';

export type ConnectionState = 'connecting' | 'open' | 'lost';

export interface ConsoleShell {
  /** 'desktop': the Electron window and its preload; 'browser': `callout ui`. */
  readonly kind: 'desktop' | 'browser';
  state(): ConnectionState;
  onState(listener: () => void): () => void;
}

const DESKTOP: ConsoleShell = { kind: 'desktop', state: () => 'open', onState: () => () => undefined };

let shell: ConsoleShell = DESKTOP;

/** Where this page runs. */
export function consoleShell(): ConsoleShell {
  return shell;
}

/** The connection to `callout ui` (always 'open' on the desktop), for components. */
export function useConnectionState(): ConnectionState {
  const s = consoleShell();
  return useSyncExternalStore(s.onState, s.state);
}

class LostConnection extends Error {
  override readonly name = 'LostConnection';
}

/** Connects to the console's WebSocket and installs window.callout built over it. */
export function connectBrowserTransport(win: Window & typeof globalThis = window): ConsoleShell {
  const scheme = win.location.protocol === 'https:' ? 'wss:' : 'ws:';
  const socket = new win.WebSocket(`${scheme}//${win.location.host}${CONSOLE_SOCKET_PATH}`);
  let state: ConnectionState = 'connecting';
  const stateListeners = new Set<() => void>();
  const setState = (next: ConnectionState) => {
    if (state === next || state === 'lost') return;
    state = next;
    for (const l of stateListeners) l();
  };

  let nextId = 1;
  const waiting = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  const queued: string[] = [];
  const listeners = new Map<string, Set<(payload: unknown) => void>>();

  socket.addEventListener('open', () => {
    setState('open');
    for (const text of queued.splice(0)) socket.send(text);
  });
  socket.addEventListener('message', (message: MessageEvent) => {
    if (typeof message.data !== 'string') return;
    let frame: ServerFrame;
    try {
      frame = JSON.parse(message.data) as ServerFrame;
    } catch {
      return;
    }
    if ('id' in frame) {
      const pending = waiting.get(frame.id);
      waiting.delete(frame.id);
      pending?.resolve(frame.result);
    } else if ('event' in frame) {
      for (const l of listeners.get(frame.event) ?? []) l(frame.payload);
    }
  });
  const lost = () => {
    setState('lost');
    queued.length = 0;
    for (const pending of waiting.values()) pending.reject(new LostConnection());
    waiting.clear();
  };
  socket.addEventListener('close', lost);
  socket.addEventListener('error', lost);

  const invoke = (channel: string, input: unknown): Promise<unknown> => {
    if (state === 'lost') return Promise.reject(new LostConnection());
    const frame: CallFrame = { id: nextId++, channel, input };
    const text = JSON.stringify(frame);
    return new Promise((resolve, reject) => {
      waiting.set(frame.id, { resolve, reject });
      if (state === 'open') socket.send(text);
      else queued.push(text);
    });
  };
  const subscribe = (channel: string, listener: (payload: unknown) => void) => {
    const set = listeners.get(channel) ?? new Set();
    listeners.set(channel, set);
    set.add(listener);
    return () => {
      set.delete(listener);
    };
  };

  const api = buildCalloutApi(CHANNEL_NAMES, EVENT_CHANNELS, invoke, subscribe) as CalloutApi;
  Object.defineProperty(win, 'callout', { value: api, enumerable: true, configurable: false, writable: false });
  shell = {
    kind: 'browser',
    state: () => state,
    onState: (listener) => {
      stateListeners.add(listener);
      return () => stateListeners.delete(listener);
    },
  };
  return shell;
}
