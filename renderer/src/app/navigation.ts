// Which screen is shown: the address's #/screen, so that a reload (and the tests) can open one.
// Every part of the app that goes to a screen calls navigate(); the shell reads it with useScreen().
import { useSyncExternalStore } from 'react';
import type en from '../i18n/en.json';

/** A screen of the left navigation (its title is `nav.<key>`). */
export type ScreenKey = keyof (typeof en)['nav'];

export function navigate(screen: ScreenKey): void {
  if (window.location.hash !== `#/${screen}`) window.location.hash = `/${screen}`;
}

function subscribe(listener: () => void): () => void {
  window.addEventListener('hashchange', listener);
  return () => window.removeEventListener('hashchange', listener);
}

/** The screen the address names now ('' when none). */
export function currentAddress(): string {
  return window.location.hash.replace(/^#\/?/, '');
}

/** The screen the address names ('' when none): the shell falls back to its first screen for anything it does not know. */
export function useScreen(): string {
  return useSyncExternalStore(subscribe, currentAddress);
}
