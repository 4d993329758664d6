// Which profile the workbench works with (its base URL for presets, its server for the clock) and
// which key signs: the profile's (it stays in main; the renderer never sees it) or one typed for
// this session. A typed key lives in this screen's state only: it is gone when the screen closes.
import { useRef } from 'react';
import { Flex, Input, Segmented, Select, Tag, Typography, type InputRef } from 'antd';
import { LockOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { ProfileView } from '../../../../common/contract';

export type KeySource = 'profile' | 'adhoc';

/** The key as the signature channels take it. */
export type SignatureKey = { profileId: string } | { adHoc: string };

export interface KeyState {
  profileId: string | null;
  source: KeySource;
  /** The typed key (never written to the page: the field is uncontrolled). */
  adHoc: string;
}

/** The key for a call, or why there is none. */
export function keyFor(
  state: KeyState,
  profile: ProfileView | null,
): { ok: true; key: SignatureKey } | { ok: false; reason: 'no-profile' | 'no-profile-key' | 'no-typed-key' } {
  if (state.source === 'adhoc') return state.adHoc === '' ? { ok: false, reason: 'no-typed-key' } : { ok: true, key: { adHoc: state.adHoc } };
  if (!profile) return { ok: false, reason: 'no-profile' };
  if (!profile.hasKey) return { ok: false, reason: 'no-profile-key' };
  return { ok: true, key: { profileId: profile.id } };
}

export interface KeyBarProps {
  profiles: ProfileView[];
  loading: boolean;
  state: KeyState;
  onChange: (next: KeyState) => void;
}

export function KeyBar({ profiles, loading, state, onChange }: KeyBarProps) {
  const { t } = useTranslation();
  const typed = useRef<InputRef>(null);
  return (
    <Flex className="sig-keybar" wrap gap={16} align="center" data-testid="signature-keybar">
      <label className="sig-field-inline">
        <Typography.Text strong>{t('signature.key.profile')}</Typography.Text>
        <Select
          style={{ width: 220 }}
          loading={loading}
          value={state.profileId ?? undefined}
          onChange={(profileId: string) => onChange({ ...state, profileId })}
          placeholder={t('signature.key.profilePlaceholder')}
          data-testid="signature-profile"
          aria-label={t('signature.key.profile')}
          options={profiles.map((p) => ({
            value: p.id,
            label: (
              <span>
                {p.name}
                {p.hasKey ? null : (
                  <Tag color="warning" style={{ marginInlineStart: 8 }}>
                    {t('signature.key.noKeyTag')}
                  </Tag>
                )}
              </span>
            ),
          }))}
        />
      </label>
      <label className="sig-field-inline">
        <Typography.Text strong>{t('signature.key.source')}</Typography.Text>
        <Segmented<KeySource>
          value={state.source}
          onChange={(source) => {
            // Leaving "typed" forgets the typed key (its field goes away with it).
            onChange({ ...state, source, adHoc: source === 'adhoc' ? state.adHoc : '' });
            if (source === 'adhoc') window.setTimeout(() => typed.current?.focus(), 0);
          }}
          options={[
            { value: 'profile', label: <span data-testid="key-source-profile">{t('signature.key.fromProfile')}</span> },
            { value: 'adhoc', label: <span data-testid="key-source-adhoc">{t('signature.key.typed')}</span> },
          ]}
          aria-label={t('signature.key.source')}
        />
      </label>
      {state.source === 'adhoc' ? (
        <Input.Password
          ref={typed}
          style={{ width: 260 }}
          placeholder={t('signature.key.typedPlaceholder')}
          autoComplete="off"
          spellCheck={false}
          aria-label={t('signature.key.typedLabel')}
          data-testid="adhoc-key"
          onChange={(e) => onChange({ ...state, adHoc: e.target.value })}
        />
      ) : null}
      <Typography.Text type="secondary" style={{ fontSize: 12 }} data-testid="key-note">
        <LockOutlined aria-hidden style={{ marginInlineEnd: 6 }} />
        {state.source === 'adhoc' ? t('signature.key.typedNote') : t('signature.key.profileNote')}
      </Typography.Text>
    </Flex>
  );
}
