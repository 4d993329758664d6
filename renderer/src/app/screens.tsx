// The screens in the left navigation, in order. Adding a screen is one entry here (and its
// `nav.<key>` title in both dictionaries).
import type { ComponentType, ReactNode } from 'react';
import { ApiOutlined } from '@ant-design/icons';
import type en from '../i18n/en.json';
import { ProfilesScreen } from '../features/profiles/ProfilesScreen';

export type ScreenKey = keyof (typeof en)['nav'];

export interface Screen {
  key: ScreenKey;
  icon: ReactNode;
  Component: ComponentType;
}

export const SCREENS: readonly Screen[] = [{ key: 'profiles', icon: <ApiOutlined />, Component: ProfilesScreen }];

export const DEFAULT_SCREEN: ScreenKey = 'profiles';

export function isScreenKey(value: string): value is ScreenKey {
  return SCREENS.some((s) => s.key === value);
}
