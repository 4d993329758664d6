// The preload bridge: window.callout, built from the contract. One named method per operation and
// subscriptions that return their unsubscribe function. Never ipcRenderer itself, never a generic invoke.
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import { buildCalloutApi } from '../common/api';
import { CHANNEL_NAMES, EVENT_CHANNELS } from '../common/contract/channels';

const api = buildCalloutApi(
  CHANNEL_NAMES,
  EVENT_CHANNELS,
  (channel, input) => ipcRenderer.invoke(channel, input),
  (channel, listener) => {
    const forward = (_event: IpcRendererEvent, payload: unknown) => listener(payload);
    ipcRenderer.on(channel, forward);
    return () => {
      ipcRenderer.removeListener(channel, forward);
    };
  },
);

contextBridge.exposeInMainWorld('callout', api);
