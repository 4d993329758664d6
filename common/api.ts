import type { CalloutApi, Channel, EventName } from './contract';

/**
 * Builds the window.callout object from channel and event names: the one builder for both
 * transports, the desktop preload (over IPC) and the browser console of `callout ui` (over its
 * WebSocket, renderer/src/app/browser-transport.ts). Imports nothing but types, so the sandboxed
 * preload bundles it without zod.
 */
export function buildCalloutApi(
  channels: readonly string[],
  events: Readonly<Record<string, string>>,
  invoke: (channel: string, input: unknown) => Promise<unknown>,
  subscribe: (channel: string, listener: (payload: unknown) => void) => () => void,
): unknown {
  const api: Record<string, Record<string, unknown>> = { on: {} };
  for (const channel of channels) {
    const dot = channel.indexOf('.');
    const group = channel.slice(0, dot);
    const method = channel.slice(dot + 1);
    api[group] ??= {};
    api[group][method] = (input: unknown) => invoke(channel, input);
  }
  for (const name of Object.keys(events)) {
    const channel = events[name] as string;
    api.on![name] = (listener: (payload: unknown) => void) => {
      if (typeof listener !== 'function') throw new TypeError(`callout.on.${name} expects a function`);
      return subscribe(channel, listener);
    };
  }
  for (const group of Object.values(api)) Object.freeze(group);
  return Object.freeze(api);
}

export type { CalloutApi, Channel, EventName };
