import { Button, Empty, Table, Tag, Tooltip, Typography } from 'antd';
import type { TableColumnsType } from 'antd';
import { ApiOutlined, CheckCircleFilled, CloseCircleFilled, DeleteOutlined, EditOutlined, KeyOutlined, MinusCircleOutlined } from '@ant-design/icons';
import type { HTMLAttributes, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { ProfileView } from '../../../../common/contract';
import { dialectDescription, dialectName } from '../dialects/dialect-names';
import { keyRefusal, keyStanding, keyStatusWord, type KeyStanding } from './key-standing';

export interface ProfileTableProps {
  profiles: ProfileView[];
  loading: boolean;
  onAdd: () => void;
  onEdit: (p: ProfileView) => void;
  onKey: (p: ProfileView) => void;
  onDelete: (p: ProfileView) => void;
  /** Opens the profile's "Replies & receipts" (dialect, how calls are followed). */
  onReading: (p: ProfileView) => void;
}

const STANDING_TAG: Record<KeyStanding, { color: string; icon: ReactNode }> = {
  missing: { color: 'warning', icon: <MinusCircleOutlined /> },
  rejected: { color: 'error', icon: <CloseCircleFilled /> },
  works: { color: 'success', icon: <CheckCircleFilled /> },
  unchecked: { color: 'default', icon: <KeyOutlined /> },
};

export function KeyStatusTag({ profile }: { profile: Pick<ProfileView, 'hasKey' | 'keyCheck' | 'signing'> }) {
  const { t } = useTranslation();
  const standing = keyStanding(profile);
  const { color, icon } = STANDING_TAG[standing];
  // A refusal is named by what was refused: the signature (the key may be right), a profile that does not sign, or the API ID or key.
  const refusal = keyRefusal(profile);
  const word = keyStatusWord(profile);
  return (
    <Tooltip title={t(`profiles.keyStatusHelp.${word}`)}>
      <Tag
        color={color}
        icon={icon}
        data-testid="key-status"
        data-has-key={String(profile.hasKey)}
        data-standing={standing}
        data-refusal={refusal ?? undefined}
      >
        {t(`profiles.keyStatus.${word}`)}
      </Tag>
    </Tooltip>
  );
}

export function ProfileTable({ profiles, loading, onAdd, onEdit, onKey, onDelete, onReading }: ProfileTableProps) {
  const { t } = useTranslation();

  const columns: TableColumnsType<ProfileView> = [
    {
      key: 'name',
      title: t('profiles.column.name'),
      dataIndex: 'name',
      width: 180,
      render: (_: unknown, p) => (
        <span style={{ display: 'inline-flex', alignItems: 'center', gap: 6, flexWrap: 'wrap' }}>
          <Typography.Text strong>{p.name}</Typography.Text>
          {p.builtin ? (
            <Tag color="blue" data-testid="builtin-tag" style={{ marginInlineEnd: 0 }}>
              {t('profiles.builtin')}
            </Tag>
          ) : null}
        </span>
      ),
    },
    {
      key: 'baseUrl',
      title: t('profiles.column.baseUrl'),
      dataIndex: 'baseUrl',
      render: (url: string, p) => (
        <>
          <Tooltip title={url} placement="topLeft">
            <div className="profile-url">{url}</div>
          </Tooltip>
          {/* How its replies are read and its calls followed: opens "Replies & receipts". */}
          <span className="profile-reading" data-testid="profile-reading" data-dialect={p.dialectId ?? 'own'} data-follow={p.follow}>
            <Tooltip title={dialectDescription(t, p.dialect, p.dialectId)} placement="bottomLeft">
              <Button
                size="small"
                type="link"
                icon={<ApiOutlined />}
                className="profile-reading-link"
                data-testid="reading-action"
                aria-label={t('dialects.actionLabel', { name: p.name })}
                onClick={() => onReading(p)}
              >
                {p.dialectId ? dialectName(t, p.dialect, p.dialectId) : `${p.dialect.name} · ${t('dialects.custom')}`}
              </Button>
            </Tooltip>
            {p.follow !== 'poll' ? (
              <Tag color={p.receipts.state === 'listening' ? 'success' : p.receipts.state === 'failed' ? 'error' : 'default'} style={{ marginInlineEnd: 0 }}>
                {t(`dialects.follow.${p.follow}`)}
              </Tag>
            ) : null}
          </span>
        </>
      ),
    },
    { key: 'apiId', title: t('profiles.column.apiId'), dataIndex: 'apiId', width: 130, ellipsis: true },
    {
      key: 'signing',
      title: t('profiles.column.signing'),
      dataIndex: 'signing',
      width: 130,
      render: (_: unknown, p) => t(`profiles.signing.${p.signing}`),
    },
    {
      key: 'key',
      title: t('profiles.column.key'),
      dataIndex: 'hasKey',
      width: 150,
      render: (_: unknown, p) => <KeyStatusTag profile={p} />,
    },
    {
      key: 'actions',
      title: t('profiles.column.actions'),
      width: 290,
      render: (_: unknown, p) => (
        <span className="profile-actions">
          <Button size="small" type="link" icon={<EditOutlined />} aria-label={t('profiles.actionLabel.edit', { name: p.name })} onClick={() => onEdit(p)}>
            {t('profiles.action.edit')}
          </Button>
          <Button
            size="small"
            type="link"
            icon={<KeyOutlined />}
            data-testid="key-action"
            aria-label={p.hasKey ? t('profiles.actionLabel.manageKey', { name: p.name }) : t('profiles.actionLabel.setKey', { name: p.name })}
            onClick={() => onKey(p)}
          >
            {p.hasKey ? t('profiles.action.manageKey') : t('profiles.action.setKey')}
          </Button>
          {p.builtin ? null : (
            <Button
              size="small"
              type="link"
              danger
              icon={<DeleteOutlined />}
              aria-label={t('profiles.actionLabel.delete', { name: p.name })}
              onClick={() => onDelete(p)}
            >
              {t('profiles.action.delete')}
            </Button>
          )}
        </span>
      ),
    },
  ];

  return (
    <Table<ProfileView>
      aria-label={t('profiles.tableLabel')}
      rowKey="id"
      size="middle"
      columns={columns}
      dataSource={profiles}
      loading={loading}
      pagination={false}
      tableLayout="fixed"
      onRow={(p) => ({ 'data-profile-id': p.id, 'data-testid': 'profile-row' }) as HTMLAttributes<HTMLElement>}
      locale={{
        emptyText: (
          <Empty description={t('profiles.empty')}>
            <Button type="primary" onClick={onAdd}>
              {t('profiles.add')}
            </Button>
          </Empty>
        ),
      }}
    />
  );
}
