// The screens in the left navigation, in order; the first is shown when the address names none.
// Adding a screen is one entry here (and its `nav.<key>` title in both dictionaries).
import type { ComponentType, ReactNode } from 'react';
import { ApiOutlined, PhoneOutlined } from '@ant-design/icons';
import type { ScreenKey } from './navigation';
import { ProfilesScreen } from '../features/profiles/ProfilesScreen';
import { SendScreen } from '../features/send/SendScreen';
import { TEMPLATES_ICON, TemplatesScreen } from '../features/templates/TemplatesScreen';
import { HISTORY_ICON, HistoryScreen } from '../features/history/HistoryScreen';
import { BULK_ICON, BulkScreen } from '../features/bulk/BulkScreen';
import { DIAL_ICON, DialScreen } from '../features/dial/DialScreen';
import { SIGNATURE_ICON, SignatureScreen } from '../features/signature/SignatureScreen';
import { SANDBOX_ICON, SandboxScreen } from '../features/sandbox/SandboxScreen';
import { WORKBENCH_ICON, WorkbenchScreen } from '../features/workbench/WorkbenchScreen';

export interface Screen {
  key: ScreenKey;
  icon: ReactNode;
  Component: ComponentType;
}

export const SCREENS: readonly Screen[] = [
  { key: 'send', icon: <PhoneOutlined />, Component: SendScreen },
  { key: 'templates', icon: TEMPLATES_ICON, Component: TemplatesScreen },
  { key: 'history', icon: HISTORY_ICON, Component: HistoryScreen },
  { key: 'bulk', icon: BULK_ICON, Component: BulkScreen },
  { key: 'dial', icon: DIAL_ICON, Component: DialScreen },
  { key: 'profiles', icon: <ApiOutlined />, Component: ProfilesScreen },
  { key: 'sandbox', icon: SANDBOX_ICON, Component: SandboxScreen },
  { key: 'requests', icon: WORKBENCH_ICON, Component: WorkbenchScreen },
  { key: 'signature', icon: SIGNATURE_ICON, Component: SignatureScreen },
];
