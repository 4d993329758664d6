// The quick-dial shortcuts: Ctrl+K (⌘K on macOS) on any screen, and the OS-wide Ctrl+Shift+K
// (⌘⇧K) that main registers even when Callout is in the background (it brings the window forward and
// pushes `quickDial`). Both open the Quick dial screen on its palette. They live in the navigation
// icon of Quick dial, the one part of this feature that is always on screen.
import { useEffect } from 'react';
import { ThunderboltOutlined } from '@ant-design/icons';
import { navigate } from '../../app/navigation';
import { requestPalette, startTypeAhead } from './dial-store';
import { onQuickDialFromMain } from './use-dial-data';

export const IS_MAC = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform || navigator.userAgent);

/** The shortcut as shown to people. */
export const SHORTCUT_KEYS: readonly string[] = IS_MAC ? ['⌘', 'K'] : ['Ctrl', 'K'];

/**
 * The shortest path from anywhere in the app to a placed call, for a favourite called before (its
 * template and values are remembered): the shortcut opens the palette with favourites first, Enter
 * picks the top one, Enter calls. Counted key by key (the shortcut is two keys) by the keyboard
 * end-to-end test; the texts that promise it say this number.
 */
export const QUICKEST_CALL_KEY_PRESSES = SHORTCUT_KEYS.length + 2;

export function isQuickDialShortcut(e: Pick<KeyboardEvent, 'key' | 'ctrlKey' | 'metaKey' | 'altKey' | 'shiftKey' | 'isComposing'>): boolean {
  if (e.isComposing || e.altKey || e.shiftKey) return false;
  const modifier = IS_MAC ? e.metaKey && !e.ctrlKey : e.ctrlKey && !e.metaKey;
  return modifier && e.key.toLowerCase() === 'k';
}

function openPalette(): void {
  startTypeAhead();
  requestPalette();
  navigate('dial');
}

export function useQuickDialShortcut(): void {
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (!isQuickDialShortcut(e)) return;
      e.preventDefault();
      openPalette();
    };
    window.addEventListener('keydown', onKey);
    const offGlobal = onQuickDialFromMain(openPalette);
    return () => {
      window.removeEventListener('keydown', onKey);
      offGlobal();
    };
  }, []);
}

/** The Quick dial icon in the navigation; it also carries the shortcut (see above). */
function DialNavIcon({ className }: { className?: string }) {
  useQuickDialShortcut();
  return <ThunderboltOutlined className={className} aria-hidden />;
}

export const DIAL_ICON = <DialNavIcon />;
