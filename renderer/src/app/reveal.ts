// Bringing what just changed into view: a screen's part whose top was scrolled off above the window
// (a wizard's next step, a batch that stopped) is scrolled back so that its top shows.

/** Scrolls `el` so that its top is in view, when it is above the window's top (never downwards). */
export function revealTop(el: { getBoundingClientRect(): { top: number }; scrollIntoView(o: ScrollIntoViewOptions): void } | null | undefined): void {
  if (el && el.getBoundingClientRect().top < 0) el.scrollIntoView({ block: 'start' });
}
