// The four steps of the getting-started guide. Each reuses what the app already has: the profile
// form and the write-only key dialog (with its balance check in words), the template chips, the
// demo templates of the Sandbox.
import { useState } from 'react';
import { Alert, Button, Flex, Space, Spin, Tag, Typography } from 'antd';
import { AppstoreOutlined, CheckCircleFilled, ExperimentOutlined, KeyOutlined, PlusOutlined, SendOutlined, WalletOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { ProfileView } from '../../../../common/contract';
import { MARKER } from '../../../../common/domain/templates';
import { describeError } from '../../app/api';
import { navigate } from '../../app/navigation';
import { BalanceResult, useBalanceCheck } from '../profiles/balance';
import { KeyModal } from '../profiles/KeyModal';
import { ProfileFormDrawer } from '../profiles/ProfileFormDrawer';
import { KeyStatusTag } from '../profiles/ProfileTable';
import type { ProfilesState } from '../profiles/use-profiles';
import { DEMO_TEMPLATES, demoTexts } from '../templates/demo-templates';
import { useAddDemoTemplates } from '../templates/use-templates';
import { MarkedContent } from '../templates/MarkedContent';
import '../templates/templates.css';
import './onboarding.css';

const SANDBOX_ID = 'sandbox';

const paragraph = { marginBottom: 12, maxWidth: 820 } as const;

export function SandboxStep({ profiles }: { profiles: ProfilesState }) {
  const { t } = useTranslation();
  const sandbox = profiles.profiles?.find((p) => p.builtin) ?? profiles.profiles?.find((p) => p.id === SANDBOX_ID) ?? null;
  const { check, run } = useBalanceCheck(sandbox?.id ?? null);
  return (
    <div data-testid="onboarding-step-sandbox">
      <Typography.Paragraph style={paragraph}>{t('onboarding.sandbox.body')}</Typography.Paragraph>
      {profiles.loading && !profiles.profiles ? (
        <Spin size="small" />
      ) : sandbox ? (
        <Space wrap align="center">
          {sandbox.hasKey ? (
            <Tag color="success" icon={<CheckCircleFilled />} data-testid="onboarding-sandbox-ready">
              {t('onboarding.sandbox.ready')}
            </Tag>
          ) : (
            <Typography.Text type="warning">{t('onboarding.sandbox.notReady')}</Typography.Text>
          )}
          {sandbox.hasKey ? (
            <Button icon={<WalletOutlined />} onClick={() => void run()} loading={check.state === 'checking'} data-testid="onboarding-sandbox-check">
              {t('onboarding.sandbox.check')}
            </Button>
          ) : null}
          <Button icon={<ExperimentOutlined />} onClick={() => navigate('sandbox')} data-testid="onboarding-open-sandbox">
            {t('sandbox.links.open')}
          </Button>
        </Space>
      ) : profiles.error ? (
        <Alert type="error" showIcon title={describeError(t, profiles.error)} />
      ) : null}
      {sandbox && check.state === 'done' ? (
        <div style={{ marginTop: 12, maxWidth: 640 }}>
          <BalanceResult check={check} profile={sandbox} />
        </div>
      ) : null}
    </div>
  );
}

export function ProviderStep({ profiles }: { profiles: ProfilesState }) {
  const { t } = useTranslation();
  const [formOpen, setFormOpen] = useState(false);
  const [keyFor, setKeyFor] = useState<{ id: string; intro: 'new' | null } | null>(null);
  const real = (profiles.profiles ?? []).filter((p) => !p.builtin);
  const keyProfile = keyFor ? (profiles.profiles?.find((p) => p.id === keyFor.id) ?? null) : null;

  const changed = (profile: ProfileView) => profiles.upsert(profile);

  return (
    <div data-testid="onboarding-step-provider">
      <Typography.Paragraph style={paragraph}>{t('onboarding.provider.body')}</Typography.Paragraph>
      {real.length ? (
        <ul className="onboarding-profiles" aria-label={t('onboarding.provider.listLabel')}>
          {real.map((p) => (
            <li key={p.id} data-testid="onboarding-profile" data-profile-id={p.id}>
              <Space wrap style={{ flex: 1, minWidth: 0 }}>
                <Typography.Text strong>{p.name}</Typography.Text>
                <Typography.Text type="secondary">{p.baseUrl}</Typography.Text>
                <KeyStatusTag profile={p} />
              </Space>
              <Button size="small" icon={<KeyOutlined />} onClick={() => setKeyFor({ id: p.id, intro: null })} data-testid="onboarding-profile-key">
                {p.hasKey ? t('onboarding.provider.manageKey') : t('onboarding.provider.setKey')}
              </Button>
            </li>
          ))}
        </ul>
      ) : null}
      <Space wrap>
        <Button type={real.length ? 'default' : 'primary'} icon={<PlusOutlined />} onClick={() => setFormOpen(true)} data-testid="onboarding-add-provider">
          {real.length ? t('onboarding.provider.addAnother') : t('onboarding.provider.add')}
        </Button>
      </Space>
      {real.length ? null : (
        <Typography.Paragraph type="secondary" style={{ ...paragraph, marginTop: 12, marginBottom: 0 }}>
          {t('onboarding.provider.later')}
        </Typography.Paragraph>
      )}

      <ProfileFormDrawer
        open={formOpen}
        profile={null}
        onClose={() => setFormOpen(false)}
        onSaved={(saved) => {
          changed(saved);
          setFormOpen(false);
          // The new profile has no key yet: ask for it at once; the dialog checks it with a balance query.
          setKeyFor({ id: saved.id, intro: 'new' });
        }}
      />
      <KeyModal profile={keyProfile} intro={keyFor?.intro ?? null} onClose={() => setKeyFor(null)} onChanged={changed} />
    </div>
  );
}

export function TemplatesStep({ onOpenLibrary }: { onOpenLibrary: () => void }) {
  const { t } = useTranslation();
  const adding = useAddDemoTemplates(t);
  const outcome = adding.data;
  const failure = adding.error;
  const texts = demoTexts(t);

  return (
    <div data-testid="onboarding-step-templates">
      <Typography.Paragraph style={paragraph}>{t('onboarding.templates.body', { path: t('templates.approval.path'), marker: MARKER })}</Typography.Paragraph>
      <Typography.Text strong>{t('onboarding.templates.demoTitle')}</Typography.Text>
      <ul style={{ margin: '6px 0 4px', paddingInlineStart: 20, maxWidth: 820 }} data-testid="onboarding-demo-list">
        {DEMO_TEMPLATES.map((d) => (
          <li key={d.key} style={{ marginBottom: 2 }}>
            <Typography.Text type="secondary">{texts[d.key].name}: </Typography.Text>
            <MarkedContent content={d.content} labels={texts[d.key].labels} />
          </li>
        ))}
      </ul>
      <Typography.Paragraph type="secondary" style={{ ...paragraph, fontSize: 13 }}>
        {t('onboarding.templates.demoBody')}
      </Typography.Paragraph>
      <Flex gap={8} wrap>
        <Button
          type={outcome ? 'default' : 'primary'}
          icon={<ExperimentOutlined />}
          loading={adding.isPending}
          onClick={() => adding.mutate()}
          data-testid="onboarding-add-demo"
        >
          {t('onboarding.templates.addDemo', { count: DEMO_TEMPLATES.length })}
        </Button>
        <Button icon={<AppstoreOutlined />} onClick={onOpenLibrary} data-testid="onboarding-open-library">
          {t('onboarding.templates.open')}
        </Button>
      </Flex>
      {outcome || failure ? (
        <div
          role="status"
          aria-live="polite"
          style={{ marginTop: 12, maxWidth: 820 }}
          data-testid="onboarding-demo-result"
          data-outcome={outcome ? 'success' : 'error'}
        >
          {outcome ? (
            <Alert
              type="success"
              showIcon
              title={outcome.added ? t('onboarding.templates.added', { count: outcome.added }) : t('onboarding.templates.present')}
            />
          ) : failure ? (
            <Alert type="error" showIcon title={t('onboarding.templates.failed')} description={describeError(t, failure)} />
          ) : null}
        </div>
      ) : null}
    </div>
  );
}

export function SendStep({ onSend, onFinish }: { onSend: () => void; onFinish: () => void }) {
  const { t } = useTranslation();
  return (
    <div data-testid="onboarding-step-send">
      <Typography.Paragraph style={paragraph}>{t('onboarding.send.body')}</Typography.Paragraph>
      <Space wrap>
        <Button type="primary" icon={<SendOutlined />} onClick={onSend} data-testid="onboarding-go-send">
          {t('onboarding.send.go')}
        </Button>
        <Button onClick={onFinish} data-testid="onboarding-finish">
          {t('onboarding.finish')}
        </Button>
      </Space>
    </div>
  );
}
