// The raw console: compose a request to a profile (an endpoint preset or any path, body fields as
// key/value rows, JSON or XML, the signature headers as the profile has them, off, spec or APISIX),
// send it, and inspect the exchange like any other. account and password are never typed here:
// main fills them in from the profile and the keychain.
import { useMemo, useState } from 'react';
import { Alert, Button, Form, Input, Segmented, Select, Space, Typography } from 'antd';
import { DeleteOutlined, PlusOutlined, SendOutlined } from '@ant-design/icons';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { InputOf } from '../../../../common/contract';
import { SUCCESS_CODE } from '../../../../common/domain/codes';
import { describeError, describeProviderCode, describeReason } from '../../app/api';
import { ask } from '../../app/query';
import { ExchangeInspector } from './Inspector';
import type { Lookups } from './use-lookups';

export const PRESETS = {
  '/voice/vm': ['mobile', 'content'],
  '/voice/status': ['smsid'],
  '/voice/balance': [],
} as const satisfies Record<string, readonly string[]>;
type Preset = keyof typeof PRESETS;
type Endpoint = Preset | 'custom';
type Signing = 'profile' | 'off' | 'spec' | 'apisix';

const PATH = /^\/[\w\-./]*$/;
const CREDENTIALS = ['account', 'password'];

interface FieldRow {
  id: number;
  key: string;
  value: string;
}

let nextRowId = 1;
const row = (key = '', value = ''): FieldRow => ({ id: nextRowId++, key, value });

type FieldProblem = 'credentials' | 'duplicate' | 'keyRequired' | null;

/** What is wrong with each row's key, by row id. */
export function fieldProblems(rows: readonly FieldRow[]): Map<number, FieldProblem> {
  const seen = new Map<string, number>();
  const out = new Map<number, FieldProblem>();
  for (const r of rows) {
    const key = r.key.trim();
    let problem: FieldProblem = null;
    if (CREDENTIALS.includes(key.toLowerCase())) problem = 'credentials';
    else if (!key && r.value !== '') problem = 'keyRequired';
    else if (key && seen.has(key)) problem = 'duplicate';
    if (key) seen.set(key, r.id);
    out.set(r.id, problem);
  }
  return out;
}

export function ConsoleTab({ lookups }: { lookups: Lookups }) {
  const { t } = useTranslation();
  const [profileId, setProfileId] = useState<string | null>(null);
  const [endpoint, setEndpoint] = useState<Endpoint>('/voice/balance');
  const [customPath, setCustomPath] = useState('/voice/');
  const [rows, setRows] = useState<FieldRow[]>([]);
  const [format, setFormat] = useState<'json' | 'xml'>('json');
  const [signing, setSigning] = useState<Signing>('profile');
  const sending = useMutation({ mutationFn: (input: InputOf<'console.send'>) => ask((api) => api.console.send(input)) });
  const result = sending.data ?? null;

  const profile = lookups.profiles.find((p) => p.id === profileId) ?? lookups.profiles[0] ?? null;
  const path = endpoint === 'custom' ? customPath.trim() : endpoint;
  const pathOk = PATH.test(path) && path.length <= 200;
  const problems = useMemo(() => fieldProblems(rows), [rows]);
  const blocked = [...problems.values()].some(Boolean) || !pathOk || !profile;

  const choose = (next: Endpoint) => {
    setEndpoint(next);
    if (next === 'custom') return;
    // The preset's fields, keeping values already typed for the same names.
    const keep = new Map(rows.map((r) => [r.key.trim(), r.value]));
    setRows(PRESETS[next].map((key) => row(key, keep.get(key) ?? '')));
  };

  const setRow = (id: number, patch: Partial<FieldRow>) => setRows((list) => list.map((r) => (r.id === id ? { ...r, ...patch } : r)));

  const send = () => {
    if (blocked || !profile) return;
    const fields: Record<string, string> = {};
    for (const r of rows) if (r.key.trim()) fields[r.key.trim()] = r.value;
    sending.mutate({ profileId: profile.id, path, fields, format, signing });
  };

  // A JSON reply carries the code as a number, an XML one as text.
  const rawCode = result?.reply?.code;
  const replyCode = typeof rawCode === 'number' ? rawCode : typeof rawCode === 'string' && /^-?\d+$/.test(rawCode.trim()) ? Number(rawCode) : null;
  const signingName = (mode: 'off' | 'spec' | 'apisix') => t(`history.console.signing.${mode}`);

  return (
    <div className="history-tab history-console" data-testid="raw-console">
      <Form layout="vertical" className="history-console-form" onFinish={send} requiredMark={false}>
        <div className="history-console-grid">
          <Form.Item label={t('history.console.profile')}>
            <Select
              value={profile?.id}
              onChange={setProfileId}
              options={lookups.profiles.map((p) => ({ value: p.id, label: p.name }))}
              aria-label={t('history.console.profile')}
              data-testid="console-profile"
            />
          </Form.Item>
          <Form.Item label={t('history.console.endpoint')}>
            <Segmented<Endpoint>
              value={endpoint}
              onChange={choose}
              options={[
                ...(Object.keys(PRESETS) as Preset[]).map((p) => ({ value: p, label: <code>{p}</code> })),
                { value: 'custom' as const, label: t('history.console.custom') },
              ]}
              data-testid="console-endpoint"
            />
          </Form.Item>
          <Form.Item label={t('history.console.format')}>
            <Segmented<'json' | 'xml'>
              value={format}
              onChange={setFormat}
              options={[
                { value: 'json', label: 'JSON' },
                { value: 'xml', label: 'XML' },
              ]}
              data-testid="console-format"
            />
          </Form.Item>
          <Form.Item label={t('history.console.signature')}>
            <Select<Signing>
              value={signing}
              onChange={setSigning}
              style={{ width: 190 }}
              aria-label={t('history.console.signature')}
              options={[
                { value: 'profile', label: t('history.console.signingProfile', { mode: signingName(profile?.signing ?? 'off') }) },
                { value: 'off', label: signingName('off') },
                { value: 'spec', label: signingName('spec') },
                { value: 'apisix', label: signingName('apisix') },
              ]}
              data-testid="console-signing"
            />
          </Form.Item>
        </div>
        {endpoint === 'custom' ? (
          <Form.Item
            label={t('history.console.path')}
            validateStatus={pathOk ? undefined : 'error'}
            help={pathOk ? undefined : t('history.console.pathInvalid')}
          >
            <Input value={customPath} onChange={(e) => setCustomPath(e.target.value)} style={{ maxWidth: 420, fontFamily: 'monospace' }} data-testid="console-path" />
          </Form.Item>
        ) : null}
        <Typography.Text strong>{t('history.console.fields')}</Typography.Text>
        <Typography.Paragraph type="secondary" style={{ marginBottom: 8 }}>
          {t('history.console.credentialsNote')}
        </Typography.Paragraph>
        <div className="history-console-fields" data-testid="console-fields">
          {rows.map((r, i) => {
            const problem = problems.get(r.id) ?? null;
            return (
              <Form.Item
                key={r.id}
                validateStatus={problem ? 'error' : undefined}
                help={problem ? t(`history.console.problem.${problem}`) : undefined}
                style={{ marginBottom: problem ? 12 : 8 }}
              >
                <Space.Compact style={{ width: '100%', maxWidth: 720 }}>
                  <Input
                    value={r.key}
                    placeholder={t('history.console.key')}
                    aria-label={t('history.console.keyN', { n: i + 1 })}
                    onChange={(e) => setRow(r.id, { key: e.target.value })}
                    style={{ width: 200, fontFamily: 'monospace' }}
                    status={problem ? 'error' : undefined}
                    data-testid="console-field-key"
                  />
                  <Input
                    value={r.value}
                    placeholder={t('history.console.value')}
                    aria-label={t('history.console.valueN', { n: i + 1 })}
                    onChange={(e) => setRow(r.id, { value: e.target.value })}
                    data-testid="console-field-value"
                  />
                  <Button icon={<DeleteOutlined />} aria-label={t('history.console.remove', { n: i + 1 })} onClick={() => setRows((list) => list.filter((x) => x.id !== r.id))} />
                </Space.Compact>
              </Form.Item>
            );
          })}
        </div>
        <Space wrap>
          <Button icon={<PlusOutlined />} onClick={() => setRows((list) => [...list, row()])} disabled={rows.length >= 30} data-testid="console-add-field">
            {t('history.console.addField')}
          </Button>
          <Button type="primary" htmlType="submit" icon={<SendOutlined />} loading={sending.isPending} disabled={blocked} data-testid="console-send">
            {t('history.console.send', { path })}
          </Button>
          {endpoint === '/voice/vm' ? <Typography.Text type="warning">{t('history.console.realCall')}</Typography.Text> : null}
        </Space>
      </Form>

      {sending.error ? <Alert type="error" showIcon title={t('history.console.failed')} description={describeError(t, sending.error)} style={{ marginTop: 16 }} data-testid="console-error" /> : null}
      {result ? (
        <div className="history-console-result" data-testid="console-result">
          {result.failure ? (
            <Alert
              type={result.failure.outcome === 'unknown' ? 'warning' : 'error'}
              showIcon
              title={t(`history.console.failure.${result.failure.outcome}`)}
              description={describeReason(t, result.failure.reason)}
              style={{ marginBottom: 12 }}
            />
          ) : replyCode !== null ? (
            <Alert
              type={replyCode === SUCCESS_CODE ? 'success' : 'warning'}
              showIcon
              title={`${t('history.detail.codeN', { code: replyCode })} · ${
                // Code 2's text speaks of a placed call: only a send places one.
                replyCode === SUCCESS_CODE && result.exchange.operation !== 'send' && !result.exchange.url.includes('/voice/vm') ? t('history.console.success') : describeProviderCode(t, replyCode).meaning
              }`}
              style={{ marginBottom: 12 }}
              data-testid="console-code"
            />
          ) : null}
          <ExchangeInspector exchange={result.exchange} />
        </div>
      ) : null}
    </div>
  );
}
