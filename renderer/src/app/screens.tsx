// The screens in the left navigation, in order; the first is shown when the address names none.
// Adding a screen is one entry here (and its `nav.<key>` title in both dictionaries).
//
// Each screen is its own chunk, loaded with its feature's texts when it is first shown (React.lazy):
// the console opens with the shell and one screen, not all of them. The navigation's icons live
// here (the one place for them), in the first chunk: a screen's module is not loaded to draw its icon.
import { lazy, type ComponentType, type ReactNode } from 'react';
import {
  AlertOutlined,
  ApiOutlined,
  ExperimentOutlined,
  FileTextOutlined,
  HistoryOutlined,
  InteractionOutlined,
  PhoneOutlined,
  SafetyCertificateOutlined,
  TeamOutlined,
} from '@ant-design/icons';
import type { ScreenKey } from './navigation';
import { DIAL_ICON } from '../features/dial/shortcut';
import { startHistoryFirstPage } from '../features/history/first-page';
import { loadTexts, type Feature } from '../i18n';

export interface Screen {
  key: ScreenKey;
  icon: ReactNode;
  Component: ComponentType;
  /** Starts loading the screen's chunk (idempotent): before it is shown, so that it appears at once. */
  preload: () => Promise<unknown>;
  /** Asks main for what the screen shows first, as a person heads for it (the click), while its chunk loads. */
  intent?: () => void;
}

function screen(key: ScreenKey, icon: ReactNode, texts: readonly Feature[], load: () => Promise<ComponentType>, intent?: () => void): Screen {
  let loading: Promise<{ default: ComponentType }> | null = null;
  const preload = () => {
    loading ??= Promise.all([load(), loadTexts(texts)]).then(([Component]) => ({ default: Component }));
    loading.catch(() => (loading = null));
    return loading;
  };
  return { key, icon, Component: lazy(preload), preload, intent };
}

export const SCREENS: readonly Screen[] = [
  screen('send', <PhoneOutlined />, ['send'], () => import('../features/send/SendScreen').then((m) => m.SendScreen)),
  screen('templates', <FileTextOutlined />, ['templates'], () => import('../features/templates/TemplatesScreen').then((m) => m.TemplatesScreen)),
  screen(
    'history',
    <HistoryOutlined />,
    ['history', 'dialects', 'workbench'],
    () => import('../features/history/HistoryScreen').then((m) => m.HistoryScreen),
    startHistoryFirstPage,
  ),
  screen('bulk', <TeamOutlined />, ['bulk', 'sandbox'], () => import('../features/bulk/BulkScreen').then((m) => m.BulkScreen)),
  screen('dial', DIAL_ICON, ['dial'], () => import('../features/dial/DialScreen').then((m) => m.DialScreen)),
  screen('oncall', <AlertOutlined />, ['oncall'], () => import('../features/oncall/OnCallScreen').then((m) => m.OnCallScreen)),
  screen('profiles', <ApiOutlined />, ['dialects'], () => import('../features/profiles/ProfilesScreen').then((m) => m.ProfilesScreen)),
  screen('sandbox', <ExperimentOutlined />, ['sandbox', 'templates'], () => import('../features/sandbox/SandboxScreen').then((m) => m.SandboxScreen)),
  screen('requests', <InteractionOutlined />, ['workbench', 'history', 'dialects'], () =>
    import('../features/workbench/WorkbenchScreen').then((m) => m.WorkbenchScreen),
  ),
  screen('signature', <SafetyCertificateOutlined />, ['signature'], () => import('../features/signature/SignatureScreen').then((m) => m.SignatureScreen)),
];

/** The screen an address names (the first one for anything else). */
export function screenFor(address: string): Screen {
  return SCREENS.find((s) => s.key === address) ?? SCREENS[0]!;
}
