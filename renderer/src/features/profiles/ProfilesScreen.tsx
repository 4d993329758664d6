// The Profiles screen: the list, the add/edit drawer, the write-only key dialog and balance checks.
import { useState } from 'react';
import { Alert, Button, Flex, Typography } from 'antd';
import { PlusOutlined, ReloadOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { ProfileView } from '../../../../common/contract';
import { describeError, type IpcError } from '../../app/api';
import { ReadingDrawer } from '../dialects/ReadingDrawer';
import { KeyModal } from './KeyModal';
import { ProfileFormDrawer } from './ProfileFormDrawer';
import { ProfileTable } from './ProfileTable';
import { useProfiles, useRemoveProfile } from './use-profiles';
import { useFeedback } from '../../app/feedback';

type FormState = { open: false } | { open: true; profile: ProfileView | null };

export function ProfilesScreen() {
  const { t } = useTranslation();
  const { message, modal } = useFeedback();
  const { profiles, loading, error, reload, upsert } = useProfiles();
  const removing = useRemoveProfile();
  const [formState, setFormState] = useState<FormState>({ open: false });
  const [keyFor, setKeyFor] = useState<{ id: string; intro: 'new' | null } | null>(null);
  const [readingFor, setReadingFor] = useState<string | null>(null);

  const find = (id: string | undefined | null) => (id ? (profiles?.find((p) => p.id === id) ?? null) : null);

  const confirmDelete = (p: ProfileView) => {
    modal.confirm({
      title: t('profiles.confirmDelete.title', { name: p.name }),
      content: t('profiles.confirmDelete.body'),
      okText: t('profiles.confirmDelete.ok'),
      okButtonProps: { danger: true },
      cancelText: t('common.cancel'),
      onOk: () =>
        removing.mutateAsync(p).then(
          () => void message.success(t('profiles.deleted', { name: p.name })),
          (e: IpcError) => void message.error(describeError(t, e)),
        ),
    });
  };

  return (
    <section aria-labelledby="profiles-title">
      <Flex align="flex-start" justify="space-between" gap={24} style={{ marginBottom: 16 }}>
        <div style={{ minWidth: 0 }}>
          <Typography.Title level={3} id="profiles-title" style={{ marginTop: 0, marginBottom: 4 }}>
            {t('profiles.title')}
          </Typography.Title>
          <Typography.Paragraph type="secondary" style={{ marginBottom: 0, maxWidth: 760 }}>
            {t('profiles.intro')}
          </Typography.Paragraph>
        </div>
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setFormState({ open: true, profile: null })} data-testid="add-profile">
          {t('profiles.add')}
        </Button>
      </Flex>

      {error ? (
        <Alert
          type="error"
          showIcon
          title={t('profiles.loadFailed')}
          description={describeError(t, error)}
          action={
            <Button icon={<ReloadOutlined />} onClick={reload}>
              {t('common.retry')}
            </Button>
          }
          style={{ marginBottom: 16 }}
        />
      ) : null}

      <ProfileTable
        profiles={profiles ?? []}
        loading={loading}
        onAdd={() => setFormState({ open: true, profile: null })}
        onEdit={(p) => setFormState({ open: true, profile: p })}
        onKey={(p) => setKeyFor({ id: p.id, intro: null })}
        onDelete={confirmDelete}
        onReading={(p) => setReadingFor(p.id)}
      />

      <ProfileFormDrawer
        open={formState.open}
        profile={formState.open ? formState.profile : null}
        onClose={() => setFormState({ open: false })}
        onSaved={(saved, created) => {
          upsert(saved);
          setFormState({ open: false });
          // A new profile has no key yet: offer to set it (and check it) right away.
          if (created && !saved.hasKey) setKeyFor({ id: saved.id, intro: 'new' });
        }}
      />

      <ReadingDrawer profile={find(readingFor)} onClose={() => setReadingFor(null)} onChanged={upsert} />

      <KeyModal profile={find(keyFor?.id)} intro={keyFor?.intro ?? null} onClose={() => setKeyFor(null)} onChanged={upsert} />
    </section>
  );
}
