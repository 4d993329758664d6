// A profile's "Replies & receipts": which dialect reads its provider's replies (a built-in one, a
// file a tester shared, or one taught from a reply), and how its calls are followed — by status
// queries, by receipts posted to its listener (address, port, path secret), or both.
import { useEffect, useState } from 'react';
import { Alert, Button, Divider, Drawer, Form, Input, InputNumber, Radio, Select, Space, Tag, Typography, Upload } from 'antd';
import { DownloadOutlined, ReloadOutlined, UploadOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { FOLLOW_MODES, type FollowMode, type IpcError, type ProfileView } from '../../../../common/contract';
import { REQUEST_OPERATIONS, requestParams, requestShape, type Dialect } from '../../../../common/dialects';
import { describeError, describeIssue } from '../../app/api';
import { downloadText } from '../../app/browser-io';
import './dialects.css';
import { useBuiltinDialects, useImportDialect, useSetDialect, useSetFollow } from './data';
import { dialectDescription, dialectName } from './dialect-names';
import { useFeedback } from '../../app/feedback';

const LOOPBACK = new Set(['127.0.0.1', '::1', 'localhost']);
const LISTENER_COLORS = { off: 'default', listening: 'success', elsewhere: 'processing', failed: 'error' } as const;

export interface ReadingDrawerProps {
  profile: ProfileView | null;
  onClose: () => void;
  /** The profile as main returned it after a change. */
  onChanged: (profile: ProfileView) => void;
}

/** Problems main reported, each at its place in the dialect. */
function Problems({ error }: { error: IpcError }) {
  const { t } = useTranslation();
  return (
    <Alert
      type="error"
      showIcon
      title={error.code === 'dialect-invalid' ? t('dialects.drawer.invalidFile') : describeError(t, error)}
      description={
        error.issues?.length ? (
          <ul className="dialect-problems" data-testid="dialect-problems">
            {error.issues.map((i) => (
              <li key={`${i.path}-${i.message}`}>
                <code>{i.path || '—'}</code> {describeIssue(t, i.message)}
              </li>
            ))}
          </ul>
        ) : null
      }
      style={{ marginBottom: 12 }}
    />
  );
}

/** What the dialect sends for each operation (method, encoding, path) and where the key goes: what a tester compares with the provider's documentation. */
function RequestShapes({ dialect }: { dialect: Dialect }) {
  const { t } = useTranslation();
  const key = requestShape(dialect, 'send').key;
  const keyText =
    key === 'signature'
      ? t('dialects.drawer.keySignature')
      : typeof key === 'object'
        ? key.prefix
          ? t('dialects.drawer.keyHeaderPrefix', { name: key.header, prefix: key.prefix.trim() })
          : t('dialects.drawer.keyHeader', { name: key.header })
        : t('dialects.drawer.keyField', { name: requestShape(dialect, 'send').fields.password ?? 'password' });
  return (
    <div className="dialect-requests" data-testid="dialect-requests">
      <Typography.Text strong>{t('dialects.drawer.requestsTitle')}</Typography.Text>
      <ul>
        {REQUEST_OPERATIONS.map((op) => {
          const shape = requestShape(dialect, op);
          const none = (op === 'status' && dialect.status === null) || (op === 'balance' && !dialect.balance);
          // The names it sends, as the dialect writes them (the fixed fields included).
          const blank = {
            account: '',
            key: '',
            mobile: op === 'send' ? '' : undefined,
            content: op === 'send' ? '' : undefined,
            id: op === 'status' ? '' : undefined,
            format: '',
          };
          const names = requestParams(shape, blank).map(([n]) => n);
          return (
            <li key={op} data-testid={`dialect-request-${op}`}>
              <span className="dialect-request-op">{t(`dialects.drawer.requestOp.${op}`)}</span>
              {none ? (
                <Typography.Text type="secondary">{t('dialects.drawer.requestNone')}</Typography.Text>
              ) : (
                <>
                  <Typography.Text code>
                    {shape.method} {shape.path}
                  </Typography.Text>{' '}
                  <Typography.Text type="secondary">
                    {t(`dialects.drawer.requestBody.${shape.body}`)} ·{' '}
                    {t('dialects.drawer.requestFields', { fields: names.join(t('dialects.drawer.fieldSeparator')) })}
                  </Typography.Text>
                </>
              )}
            </li>
          );
        })}
      </ul>
      <Typography.Text type="secondary">{keyText}</Typography.Text>
    </div>
  );
}

export function ReadingDrawer({ profile, onClose, onChanged }: ReadingDrawerProps) {
  const { t } = useTranslation();
  const { message, modal } = useFeedback();
  const builtins = useBuiltinDialects();
  const [choice, setChoice] = useState<string>('spec');
  const [problem, setProblem] = useState<IpcError | null>(null);
  const [follow, setFollow] = useState<FollowMode>('poll');
  const [host, setHost] = useState('127.0.0.1');
  const [port, setPort] = useState<number | null>(0);

  useEffect(() => {
    if (!profile) return;
    setChoice(profile.dialectId ?? 'own');
    setFollow(profile.follow);
    setHost(profile.receipts.host);
    setPort(profile.receipts.port);
    setProblem(null);
  }, [profile]);

  const applied = (r: { profile: ProfileView; reread: number }) => {
    onChanged(r.profile);
    setProblem(null);
    void message.success(
      [
        t('dialects.drawer.applied', { name: r.profile.name, dialect: dialectName(t, r.profile.dialect, r.profile.dialectId) }),
        r.reread ? t('dialects.drawer.reread', { count: r.reread }) : '',
      ]
        .filter(Boolean)
        .join(' '),
    );
  };

  const setDialect = useSetDialect(profile?.id);
  const importFile = useImportDialect(profile?.id);
  const saveFollow = useSetFollow(profile?.id);
  const dialectApplied = { onSuccess: applied, onError: setProblem };
  const followSaved = {
    onSuccess: (changed: ProfileView) => {
      setProblem(null);
      onChanged(changed);
      void message.success(t('dialects.drawer.saved'));
    },
    onError: setProblem,
  };

  const renewSecret = () =>
    modal.confirm({
      title: t('dialects.drawer.newSecretTitle'),
      content: t('dialects.drawer.newSecretBody'),
      okText: t('dialects.drawer.newSecret'),
      cancelText: t('common.cancel'),
      // The confirmation closes whatever the answer: a refusal is shown in the drawer.
      onOk: () =>
        saveFollow
          .mutateAsync({ follow: profile!.follow, host: profile!.receipts.host, port: profile!.receipts.port, newSecret: true }, followSaved)
          .catch(() => undefined),
    });

  let body = null;
  if (profile) {
    const d = profile.dialect;
    const options = [
      { label: t('dialects.drawer.builtinGroup'), options: (builtins.data ?? []).map((b) => ({ value: b.id!, label: dialectName(t, b) })) },
      ...(profile.dialectId === null ? [{ label: t('dialects.drawer.ownGroup'), options: [{ value: 'own', label: d.name }] }] : []),
    ];
    const chosen = choice === 'own' ? d : builtins.data?.find((b) => b.id === choice);
    const description = chosen ? dialectDescription(t, chosen, choice === 'own' ? null : choice) : undefined;
    const exposed = profile.follow !== 'poll' && !LOOPBACK.has(profile.receipts.host);
    body = (
      <div data-testid="reading-drawer-body">
        <Typography.Paragraph type="secondary">{t('dialects.drawer.intro')}</Typography.Paragraph>
        {problem ? <Problems error={problem} /> : null}
        <Form layout="vertical" className="callout-form">
          <Form.Item label={t('dialects.drawer.dialect')} extra={description}>
            <Space.Compact style={{ width: '100%' }}>
              <Select value={choice} onChange={setChoice} options={options} style={{ flex: 1 }} data-testid="dialect-select" />
              <Button
                type="primary"
                disabled={choice === (profile.dialectId ?? 'own')}
                loading={setDialect.isPending}
                onClick={() => setDialect.mutate({ builtin: choice }, dialectApplied)}
                data-testid="dialect-apply"
              >
                {t('dialects.drawer.apply')}
              </Button>
            </Space.Compact>
          </Form.Item>
          <Space wrap style={{ marginBottom: 8 }}>
            <Upload
              accept=".json,application/json"
              showUploadList={false}
              maxCount={1}
              beforeUpload={(file) => {
                void file.text().then((text) => importFile.mutate(text, dialectApplied));
                return false;
              }}
            >
              <Button icon={<UploadOutlined />} loading={importFile.isPending} data-testid="dialect-import">
                {t('dialects.drawer.import')}
              </Button>
            </Upload>
            <Button
              icon={<DownloadOutlined />}
              onClick={() => downloadText(`${d.name.replace(/[^\w.-]+/g, '-')}.dialect.json`, `${JSON.stringify(d, null, 2)}\n`, 'application/json')}
              data-testid="dialect-export"
            >
              {t('dialects.drawer.export')}
            </Button>
          </Space>
          {chosen ? <RequestShapes dialect={chosen} /> : null}
          {!d.status ? <Alert type="info" showIcon title={t('dialects.drawer.noStatus')} style={{ marginBottom: 12 }} /> : null}
          {!d.receipt ? <Alert type="info" showIcon title={t('dialects.drawer.noReceipt')} style={{ marginBottom: 12 }} /> : null}
          <Divider titlePlacement="start">{t('dialects.drawer.followTitle')}</Divider>
          <Form.Item extra={t(`dialects.followHelp.${follow}`)}>
            <Radio.Group
              value={follow}
              onChange={(e) => setFollow(e.target.value as FollowMode)}
              optionType="button"
              options={FOLLOW_MODES.map((m) => ({
                value: m,
                label: t(`dialects.follow.${m}`),
                disabled: (m !== 'receipts' && !d.status) || (m !== 'poll' && !d.receipt),
              }))}
              data-testid="follow-mode"
            />
          </Form.Item>
          {follow !== 'poll' ? (
            <div style={{ display: 'flex', gap: 16 }}>
              <Form.Item label={t('dialects.drawer.host')} extra={t('dialects.drawer.hostHelp')} style={{ flex: 2 }}>
                <Input value={host} onChange={(e) => setHost(e.target.value)} spellCheck={false} data-testid="listen-host" />
              </Form.Item>
              <Form.Item label={t('dialects.drawer.port')} extra={t('dialects.drawer.portHelp')} style={{ flex: 1 }}>
                <InputNumber value={port} onChange={(v) => setPort(v)} min={0} max={65535} precision={0} style={{ width: '100%' }} data-testid="listen-port" />
              </Form.Item>
            </div>
          ) : null}
          <Button
            type="primary"
            loading={saveFollow.isPending}
            onClick={() => saveFollow.mutate({ follow, host: host.trim(), port: port ?? 0 }, followSaved)}
            data-testid="follow-save"
          >
            {t('dialects.drawer.save')}
          </Button>
        </Form>
        {profile.receipts.url ? (
          <div className="dialect-address" data-testid="receipt-address">
            <Divider titlePlacement="start">{t('dialects.drawer.address')}</Divider>
            <Space wrap style={{ marginBottom: 8 }}>
              <Tag color={LISTENER_COLORS[profile.receipts.state]} data-testid="listener-state" data-state={profile.receipts.state}>
                {t(`dialects.listener.${profile.receipts.state}`)}
              </Tag>
              <Typography.Text code copyable data-testid="receipt-url">
                {profile.receipts.url}
              </Typography.Text>
            </Space>
            <Typography.Paragraph type="secondary" style={{ fontSize: 12 }}>
              {t('dialects.drawer.addressHelp')}
            </Typography.Paragraph>
            {exposed ? (
              <Alert
                type="warning"
                showIcon
                title={t('dialects.drawer.exposed', { host: profile.receipts.host })}
                style={{ marginBottom: 8 }}
                data-testid="listener-exposed"
              />
            ) : null}
            <Button icon={<ReloadOutlined />} onClick={renewSecret} data-testid="new-secret">
              {t('dialects.drawer.newSecret')}
            </Button>
          </div>
        ) : null}
      </div>
    );
  }

  return (
    <Drawer
      open={profile !== null}
      onClose={onClose}
      size={600}
      title={profile ? t('dialects.drawer.title', { name: profile.name }) : ''}
      destroyOnHidden
      data-testid="reading-drawer"
    >
      {body}
    </Drawer>
  );
}
