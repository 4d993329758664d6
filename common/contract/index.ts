// The one IPC contract, assembled from one module per feature. Every operation the renderer may ask
// for is declared once: its dotted channel name, its input schema (zod) and its output type. Push
// events from main are declared the same way. main (handler table, IPC, browser transport, CLI),
// the preload and the renderer all derive from this object; nothing else declares a channel.
import type { z } from 'zod';
import { appEvents, appOps } from './app';
import { bulkEvents, bulkOps } from './bulk';
import { captureEvents, captureOps } from './capture';
import { CHANNEL_NAMES, EVENT_CHANNELS, type ChannelName } from './channels';
import { dialEvents, dialOps } from './dial';
import { dialectsOps } from './dialects';
import type { IpcResult } from './errors';
import { historyOps } from './history';
import { pagingEvents, pagingOps } from './paging';
import { profilesEvents, profilesOps } from './profiles';
import { sandboxOps } from './sandbox';
import { sendEvents, sendOps } from './send';
import { signatureOps } from './signature';
import { templatesOps } from './templates';
import { workbenchEvents, workbenchOps } from './workbench';

export const contract = {
  channels: {
    ...appOps,
    ...profilesOps,
    ...dialectsOps,
    ...templatesOps,
    ...sendOps,
    ...historyOps,
    ...bulkOps,
    ...dialOps,
    ...sandboxOps,
    ...signatureOps,
    ...workbenchOps,
    ...captureOps,
    ...pagingOps,
  },
  events: { ...sendEvents, ...bulkEvents, ...dialEvents, ...appEvents, ...profilesEvents, ...workbenchEvents, ...captureEvents, ...pagingEvents },
} as const;

export type Contract = typeof contract;
export type Channel = keyof Contract['channels'];
export type EventName = keyof Contract['events'];
export type EventChannel = Contract['events'][EventName]['channel'];
export type InputOf<C extends Channel> = z.input<Contract['channels'][C]['input']>;
export type ParsedInputOf<C extends Channel> = z.output<Contract['channels'][C]['input']>;
export type OutputOf<C extends Channel> = Contract['channels'][C]['output'];
export type PayloadOf<E extends EventName> = Contract['events'][E]['payload'];

// The zod-free name lists (channels.ts) and the declarations above name the same operations and
// events: a difference either way fails the type check here.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const namesMatch: Same<Channel, ChannelName> = true;
const eventsMatch: Same<{ [E in EventName]: Contract['events'][E]['channel'] }, typeof EVENT_CHANNELS> = true;
void namesMatch;
void eventsMatch;

export const CHANNELS: readonly Channel[] = CHANNEL_NAMES;
export const EVENTS = Object.keys(EVENT_CHANNELS) as EventName[];
export { CHANNEL_NAMES, EVENT_CHANNELS };

type GroupOf<C> = C extends `${infer G}.${string}` ? G : never;
type ArgsOf<C extends Channel> = undefined extends InputOf<C> ? [input?: InputOf<C>] : [input: InputOf<C>];

/**
 * The typed API the preload and the browser transport expose as window.callout: one named method
 * per operation, grouped by the channel's first part (`callout.messages.send(...)`), and
 * `callout.on.<event>(listener)` returning its unsubscribe function.
 */
export type CalloutApi = {
  [G in GroupOf<Channel>]: {
    [C in Channel as C extends `${G}.${infer M}` ? M : never]: (...args: ArgsOf<C>) => Promise<IpcResult<OutputOf<C>>>;
  };
} & {
  on: { [E in EventName]: (listener: (payload: PayloadOf<E>) => void) => () => void };
};

export * from './define';
export * from './errors';
export type { AppInfo, SecretStoreView, StorageProblem } from './app';
export type { ImportProgress } from './bulk';
export {
  FOLLOW_MODES,
  profileInput,
  type DialectSaved,
  type FollowMode,
  type KeyCheck,
  type ListenerState,
  type ProfileInput,
  type ProfileLines,
  type ProfileSaveResult,
  type ProfileView,
} from './profiles';
export type { DialectPreview, ReplyTree, ResolveCount, SeenValue } from './dialects';
export type { SandboxFaultInput, SandboxFaultView, SandboxLibraryEntry, SandboxRequestView, SandboxTemplateView, SandboxView } from './sandbox';
export type { ImportResult, TemplateView } from './templates';
export type { BalanceView, FailureView, LastSendView, MessageDetail, RecentsView, SendView, StatusView } from './send';
export { exchangeQuery, historyFilter, type StoreStatus } from './history';
export * from './workbench';
export type { DiagnosisView, KeyNote, SignStepsView, VariantProbeView, VectorCheckView, VerifyView } from './signature';
export type { CallState } from '../domain/status';
