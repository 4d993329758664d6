// The left navigation: one item per screen (SCREENS), the current one selected. It is a menu as
// antd's inline Menu draws one (role menu and menuitem, the same look: app.css), written out here
// because antd's Menu, with rc-menu, its overflow and motion code, was about 45 KB of the first
// screen for nine fixed items. Keyboard: Tab reaches the current screen's item; the arrows, Home
// and End move between items; Enter or Space opens one. The pointer on an item (or the focus) starts
// loading its screen's chunk; opening one also asks main for what the screen shows first (its
// `intent`), so the request runs while the chunk loads.
import { useRef, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { navigate, type ScreenKey } from './navigation';
import { SCREENS, type Screen } from './screens';

function open(s: Screen, current: ScreenKey): void {
  if (s.key !== current) s.intent?.();
  navigate(s.key);
}

function warm(s: Screen): void {
  void s.preload().catch(() => undefined);
}

export function NavMenu({ current }: { current: ScreenKey }) {
  const { t } = useTranslation();
  const items = useRef<(HTMLLIElement | null)[]>([]);

  const onKeyDown = (e: KeyboardEvent<HTMLLIElement>, index: number, s: Screen) => {
    const last = SCREENS.length - 1;
    const move: Record<string, number> = { ArrowDown: index === last ? 0 : index + 1, ArrowUp: index === 0 ? last : index - 1, Home: 0, End: last };
    if (e.key in move) {
      e.preventDefault();
      items.current[move[e.key]!]?.focus();
    } else if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault();
      open(s, current);
    }
  };

  return (
    <ul role="menu" aria-orientation="vertical" className="callout-nav">
      {SCREENS.map((s, i) => {
        const selected = s.key === current;
        return (
          <li
            key={s.key}
            ref={(el) => {
              items.current[i] = el;
            }}
            role="menuitem"
            tabIndex={selected ? 0 : -1}
            aria-current={selected ? 'page' : undefined}
            className={selected ? 'callout-nav-item is-selected' : 'callout-nav-item'}
            onClick={() => open(s, current)}
            onPointerEnter={() => warm(s)}
            onFocus={() => warm(s)}
            onKeyDown={(e) => onKeyDown(e, i, s)}
          >
            {s.icon}
            <span className="callout-nav-title">{t(`nav.${s.key}`)}</span>
          </li>
        );
      })}
    </ul>
  );
}
