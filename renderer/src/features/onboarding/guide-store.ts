// The getting-started guide's state, shared by the header button and the panel: whether it is
// shown, and on which step. What the guide changes (a profile, templates) goes through the shared
// data layer, so the screen below it shows it at once.
import { call } from '../../app/api';
import { createStore, useStore } from '../../app/store';

/** Set once the user skipped or finished the guide: it then never opens by itself again. Holds only "1". */
export const ONBOARDING_DISMISSED_KEY = 'callout.onboarding.dismissed';

export const GUIDE_STEPS = ['sandbox', 'provider', 'templates', 'send'] as const;
export type GuideStep = (typeof GUIDE_STEPS)[number];

export interface GuideState {
  visible: boolean;
  step: number;
  /** Goes up when the user asks for the guide (the panel then takes the focus). */
  focusRequest: number;
  /** One line only (the person went to a screen: that screen's content comes first); expanded again on request. */
  compact: boolean;
}

const guide = createStore<GuideState>({ visible: false, step: 0, focusRequest: 0, compact: false });

const update = (next: Partial<GuideState>) => guide.set((state) => ({ ...state, ...next }));

export function useGuide(): GuideState {
  return useStore(guide);
}

export function isGuideDismissed(): boolean {
  try {
    return window.localStorage.getItem(ONBOARDING_DISMISSED_KEY) === '1';
  } catch {
    return false;
  }
}

export function openGuide(): void {
  update({ visible: true, compact: false, focusRequest: guide.get().focusRequest + 1 });
}

/** The guide folds to one line when the person goes to another screen, so that screen shows first. */
export function compactGuide(): void {
  if (guide.get().visible) update({ compact: true });
}

/** Hides the guide and remembers it, so it does not open by itself again. */
export function dismissGuide(): void {
  try {
    window.localStorage.setItem(ONBOARDING_DISMISSED_KEY, '1');
  } catch {
    // Without storage the guide may open again on the next start; nothing else depends on it.
  }
  update({ visible: false });
}

export function setGuideStep(step: number): void {
  update({ step: Math.max(0, Math.min(GUIDE_STEPS.length - 1, step)) });
}

let firstStartCheck: Promise<void> | null = null;

/**
 * On the first start (no template, no message sent, guide never dismissed) the guide opens by
 * itself. Checked once per app start; if main can't answer, the guide simply stays closed.
 */
export function checkFirstStart(): Promise<void> {
  firstStartCheck ??= (async () => {
    if (isGuideDismissed()) return;
    const [templates, messages] = await Promise.all([call((api) => api.templates.list()), call((api) => api.history.page({ limit: 1 }))]);
    if (templates.ok && messages.ok && templates.value.length === 0 && messages.value.rows.length === 0 && !isGuideDismissed()) {
      update({ visible: true });
    }
  })();
  return firstStartCheck;
}
