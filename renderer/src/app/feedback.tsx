// Toasts and confirmations for every screen: antd's message and modal, as its App.useApp() gives
// them, with their code (about 45 KB: antd's App brings message, notification and modal) in a chunk
// of its own instead of the first screen's. It is fetched once the first screen is up (main.tsx),
// or by the first toast or confirmation if that comes sooner: that one is then shown as soon as the
// code has arrived (a few milliseconds from the console's own server), and its handle (close,
// update, then) works meanwhile. The holders render inside the ConfigProvider (theme, language).
import { lazy, Suspense, useSyncExternalStore } from 'react';
import type { Feedback } from './FeedbackHolders';

export type { Feedback };
type MessageApi = Feedback['message'];
type MessageType = ReturnType<MessageApi['open']>;
type ModalApi = Feedback['modal'];
type ModalHandle = ReturnType<ModalApi['confirm']>;
type ModalUpdate = Parameters<ModalHandle['update']>[0];

let ready: Feedback | null = null;
const waiting: ((f: Feedback) => void)[] = [];
let wanted = false;
const listeners = new Set<() => void>();

const loadHolders = () => import('./FeedbackHolders');
const Holders = lazy(loadHolders);

/** Fetches the toasts' and confirmations' code and mounts their holders (once). */
export function preloadFeedback(): void {
  if (wanted) return;
  wanted = true;
  void loadHolders().catch(() => undefined);
  listeners.forEach((l) => l());
}

function whenReady(run: (f: Feedback) => void): void {
  if (ready) run(ready);
  else {
    waiting.push(run);
    preloadFeedback();
  }
}

/** Called by the holders once mounted (and again if antd gives new instances). */
function onReady(f: Feedback): void {
  ready = f;
  for (const run of waiting.splice(0)) run(f);
}

/** A toast now, or as soon as the code is here (closing it before then means it is not shown). */
function toast(show: (m: MessageApi) => MessageType): MessageType {
  if (ready) return show(ready.message);
  let closed = false;
  // Wrapped: a MessageType is itself a thenable (it settles when the toast closes).
  const shown = new Promise<{ m: MessageType | null }>((resolve) => whenReady((f) => resolve({ m: closed ? null : show(f.message) })));
  const close = (() => {
    closed = true;
    void shown.then(({ m }) => m?.());
  }) as MessageType;
  close.then = (onClosed, onFailed) => shown.then(({ m }) => m ?? false).then(onClosed, onFailed);
  return close;
}

/** A confirmation now, or as soon as the code is here; updates made meanwhile are applied to it. */
function dialog(open: (m: ModalApi) => ModalHandle): ModalHandle {
  if (ready) return open(ready.modal);
  let handle: ModalHandle | null = null;
  let destroyed = false;
  const updates: ModalUpdate[] = [];
  const opened = new Promise<{ h: ModalHandle | null }>((resolve) =>
    whenReady((f) => {
      if (destroyed) return resolve({ h: null });
      handle = open(f.modal);
      for (const u of updates.splice(0)) handle.update(u);
      resolve({ h: handle });
    }),
  );
  return {
    destroy: () => {
      destroyed = true;
      handle?.destroy();
    },
    update: (u) => {
      if (handle) handle.update(u);
      else updates.push(u);
    },
    // As antd's own: settles with whether it was confirmed.
    then: (onClosed) => opened.then(({ h }) => (h ? new Promise<boolean>((resolve) => void h.then(resolve, () => resolve(false))) : false)).then(onClosed),
  };
}

const FEEDBACK: Feedback = {
  message: {
    info: (...a) => toast((m) => m.info(...a)),
    success: (...a) => toast((m) => m.success(...a)),
    error: (...a) => toast((m) => m.error(...a)),
    warning: (...a) => toast((m) => m.warning(...a)),
    loading: (...a) => toast((m) => m.loading(...a)),
    open: (args) => toast((m) => m.open(args)),
    destroy: (key) => whenReady((f) => f.message.destroy(key)),
  },
  modal: {
    info: (props) => dialog((m) => m.info(props)),
    success: (props) => dialog((m) => m.success(props)),
    error: (props) => dialog((m) => m.error(props)),
    warning: (props) => dialog((m) => m.warning(props)),
    confirm: (props) => dialog((m) => m.confirm(props)),
  },
};

/** Toasts (message) and confirmations (modal), as antd's App.useApp() gives them; the same everywhere. */
export function useFeedback(): Feedback {
  return FEEDBACK;
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The holders of the toasts and confirmations, mounted once their code is wanted (inside the ConfigProvider). */
export function FeedbackHost() {
  const mounted = useSyncExternalStore(subscribe, () => wanted);
  return mounted ? (
    <Suspense fallback={null}>
      <Holders onReady={onReady} />
    </Suspense>
  ) : null;
}
