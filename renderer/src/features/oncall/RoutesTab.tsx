// Routes: ordered rules that send an alert to an escalation policy and a template. Matchers are
// typed as Alertmanager writes them and checked as they are typed; the call's text is previewed
// on a sample alert with the warnings speech would give.
import { useMemo, useState } from 'react';
import { Alert, Button, Checkbox, Empty, Flex, Input, InputNumber, Modal, Select, Table, Tag, Typography } from 'antd';
import { DeleteOutlined, EditOutlined, PlusOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import { codedArgs, MESSAGES_NS } from '../../../../common/messages';
import { formatMatcher, orderRoutes, parseMatchers } from '../../../../common/paging/matchers';
import { markerName, sayText, type SayIssue } from '../../../../common/paging/say';
import type { AlertGroup, Route } from '../../../../common/paging/types';
import { ErrorView } from './ErrorView';
import { templatesQuery, usePolicies, useRemoveRoute, useRoutes, useSaveRoute } from './data';

function say(t: TFunction, [key, options]: [string, object]): string {
  return (t as unknown as (k: string, o: object) => string)(key, { ...options, ns: MESSAGES_NS });
}

/** The alert the preview fills the template from: a typical Alertmanager alert. */
export const SAMPLE_ALERT: AlertGroup = {
  source: 'alertmanager',
  key: 'sample',
  status: 'firing',
  title: 'DiskFull db-1',
  severity: 'critical',
  groupLabels: { alertname: 'DiskFull' },
  commonLabels: { alertname: 'DiskFull', instance: 'db-1', job: 'node', severity: 'critical', service: '数据库' },
  commonAnnotations: { summary: '磁盘已满', description: '/data 可用空间 2%' },
  externalURL: null,
  truncatedAlerts: 0,
  alerts: [
    {
      status: 'firing',
      labels: { alertname: 'DiskFull', instance: 'db-1', job: 'node', severity: 'critical', service: '数据库' },
      annotations: { summary: '磁盘已满', description: '/data 可用空间 2%' },
      startsAt: null,
      endsAt: null,
      fingerprint: 'sample',
      generatorURL: null,
    },
  ],
};

interface Draft {
  id?: number;
  name: string;
  position: number;
  matchers: string;
  severities: string[];
  policyId: number | null;
  templateId: string | null;
  variables: Record<string, string>;
  throughQuietHours: string[];
  callOnResolved: boolean;
  isDefault: boolean;
}

const draftOf = (r: Route): Draft => ({ ...r, matchers: r.matchers.map(formatMatcher).join(', ') });

export function RoutesTab() {
  const { t } = useTranslation();
  const routes = useRoutes();
  const policies = usePolicies();
  const remove = useRemoveRoute();
  const [editing, setEditing] = useState<Draft | null>(null);
  const ordered = useMemo(() => orderRoutes(routes.data ?? []), [routes.data]);
  const policyName = (id: number) => policies.data?.find((p) => p.id === id)?.name ?? `#${id}`;
  const fresh = (): Draft => ({
    name: '',
    position: ordered.length ? Math.max(...ordered.map((r) => r.position)) + 10 : 10,
    matchers: '',
    severities: [],
    policyId: policies.data?.[0]?.id ?? null,
    templateId: null,
    variables: {},
    throughQuietHours: [],
    callOnResolved: false,
    isDefault: ordered.length === 0,
  });

  return (
    <div data-testid="routes-tab">
      <ErrorView error={routes.error ?? policies.error ?? remove.error} />
      <Flex justify="space-between" align="center" gap={12} style={{ marginBottom: 8 }}>
        <Typography.Text type="secondary">{t('oncall.routes.intro')}</Typography.Text>
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing(fresh())} disabled={!policies.data?.length} data-testid="route-add">
          {t('oncall.routes.add')}
        </Button>
      </Flex>
      {policies.data && !policies.data.length ? <Alert type="info" showIcon title={t('oncall.routes.needPolicy')} style={{ marginBottom: 8 }} /> : null}
      <Table<Route>
        size="small"
        rowKey="id"
        pagination={false}
        loading={routes.isPending}
        dataSource={ordered}
        locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('oncall.routes.empty')} /> }}
        onRow={() => ({ 'data-testid': 'route-row' }) as React.HTMLAttributes<HTMLElement>}
        columns={[
          { title: '#', render: (_, _r, i) => i + 1, width: 40 },
          {
            title: t('oncall.routes.name'),
            render: (_, r) => (
              <span>
                {r.name} {r.isDefault ? <Tag color="blue">{t('oncall.routes.default')}</Tag> : null}
              </span>
            ),
          },
          {
            title: t('oncall.routes.matchers'),
            render: (_, r) => <Typography.Text code>{r.matchers.length ? r.matchers.map(formatMatcher).join(', ') : '*'}</Typography.Text>,
          },
          { title: t('oncall.routes.severities'), render: (_, r) => (r.severities.length ? r.severities.join(', ') : t('oncall.routes.anySeverity')) },
          { title: t('oncall.routes.policy'), render: (_, r) => policyName(r.policyId) },
          {
            title: '',
            width: 80,
            render: (_, r) => (
              <Flex gap={4}>
                <Button
                  size="small"
                  type="text"
                  icon={<EditOutlined />}
                  aria-label={t('oncall.edit', { name: r.name })}
                  onClick={() => setEditing(draftOf(r))}
                />
                <Button
                  size="small"
                  type="text"
                  danger
                  icon={<DeleteOutlined />}
                  aria-label={t('oncall.remove', { name: r.name })}
                  onClick={() => remove.mutate(r.id)}
                />
              </Flex>
            ),
          },
        ]}
      />
      {editing ? <RouteForm draft={editing} onClose={() => setEditing(null)} /> : null}
    </div>
  );
}

/** The call's problems or warnings, each said from the msg catalog (`paging.say.*`). */
export function IssueList({ issues, type, testId = 'route' }: { issues: SayIssue[]; type: 'error' | 'warning'; testId?: string }) {
  const { t } = useTranslation();
  if (!issues.length) return null;
  return (
    <ul className="oncall-timeline" data-testid={`${testId}-${type}s`}>
      {issues.map((i, n) => (
        <li key={n}>
          <Typography.Text type={type === 'error' ? 'danger' : 'warning'}>{say(t, codedArgs('paging.say', i))}</Typography.Text>
        </li>
      ))}
    </ul>
  );
}

function RouteForm({ draft, onClose }: { draft: Draft; onClose: () => void }) {
  const { t } = useTranslation();
  const templates = useQuery(templatesQuery);
  const policies = usePolicies();
  const save = useSaveRoute();
  const [d, setD] = useState(draft);
  const set = (patch: Partial<Draft>) => setD((x) => ({ ...x, ...patch }));
  const parsed = parseMatchers(d.matchers);
  const matcherError = parsed.ok
    ? null
    : say(t, codedArgs('paging.matcherSyntax', { code: parsed.error.params.problem, params: { at: parsed.error.params.at + 1 } }));
  const template = templates.data?.find((x) => x.id === d.templateId) ?? null;
  const markers = template ? Array.from({ length: template.markerCount }, (_, i) => markerName(template, i)) : [];
  const preview = template ? sayText(template, d.variables, SAMPLE_ALERT) : null;
  const ready = d.name.trim() && parsed.ok && d.policyId !== null && d.templateId !== null && (preview?.errors.length ?? 1) === 0;

  const submit = () => {
    if (!ready || !parsed.ok) return;
    save.mutate(
      {
        id: d.id,
        name: d.name.trim(),
        position: d.position,
        matchers: parsed.matchers,
        severities: d.severities,
        policyId: d.policyId!,
        templateId: d.templateId!,
        variables: Object.fromEntries(markers.map((m) => [m, d.variables[m] ?? ''])),
        throughQuietHours: d.throughQuietHours,
        callOnResolved: d.callOnResolved,
        isDefault: d.isDefault,
      },
      { onSuccess: onClose },
    );
  };

  return (
    <Modal
      open
      title={d.id ? t('oncall.routes.edit') : t('oncall.routes.add')}
      onCancel={onClose}
      onOk={submit}
      okText={t('common.save')}
      cancelText={t('common.cancel')}
      okButtonProps={{ disabled: !ready, loading: save.isPending, 'data-testid': 'route-save' }}
      width={680}
    >
      <div className="oncall-form" data-testid="route-form">
        <ErrorView error={save.error} />
        <label className="oncall-field">
          <span>{t('oncall.routes.name')}</span>
          <Input value={d.name} onChange={(e) => set({ name: e.target.value })} data-testid="route-name" />
        </label>
        <label className="oncall-field">
          <span>{t('oncall.routes.matchers')}</span>
          <Input
            value={d.matchers}
            onChange={(e) => set({ matchers: e.target.value })}
            placeholder={'{severity="critical", service=~"db|cache"}'}
            status={matcherError ? 'error' : undefined}
            data-testid="route-matchers"
          />
        </label>
        {matcherError ? (
          <Typography.Text type="danger" data-testid="route-matchers-error" className="oncall-field-error">
            {matcherError}
          </Typography.Text>
        ) : (
          <Typography.Text type="secondary" className="oncall-field-error">
            {t('oncall.routes.matchersHelp')}
          </Typography.Text>
        )}
        <Flex gap={12} wrap>
          <label className="oncall-field" style={{ flex: 1, minWidth: 200 }}>
            <span>{t('oncall.routes.severities')}</span>
            <Select
              mode="tags"
              value={d.severities}
              onChange={(v: string[]) => set({ severities: v.map((s) => s.toLowerCase()) })}
              options={['critical', 'warning', 'info'].map((v) => ({ value: v }))}
              placeholder={t('oncall.routes.anySeverity')}
            />
          </label>
          <label className="oncall-field" style={{ width: 120 }}>
            <span>{t('oncall.routes.position')}</span>
            <InputNumber value={d.position} min={0} max={100000} onChange={(v) => set({ position: v ?? 0 })} style={{ width: '100%' }} />
          </label>
        </Flex>
        <Flex gap={12} wrap>
          <label className="oncall-field" style={{ flex: 1, minWidth: 200 }}>
            <span>{t('oncall.routes.policy')}</span>
            <Select
              value={d.policyId ?? undefined}
              onChange={(v: number) => set({ policyId: v })}
              options={(policies.data ?? []).map((p) => ({ value: p.id, label: p.name }))}
              data-testid="route-policy"
            />
          </label>
          <label className="oncall-field" style={{ flex: 1, minWidth: 200 }}>
            <span>{t('oncall.routes.template')}</span>
            <Select
              value={d.templateId ?? undefined}
              onChange={(v: string) => set({ templateId: v })}
              options={(templates.data ?? []).filter((x) => x.approved).map((x) => ({ value: x.id, label: x.name }))}
              data-testid="route-template"
            />
          </label>
        </Flex>
        {markers.map((m) => (
          <label className="oncall-field" key={m}>
            <span>{t('oncall.routes.marker', { name: m })}</span>
            <Input
              value={d.variables[m] ?? ''}
              onChange={(e) => set({ variables: { ...d.variables, [m]: e.target.value } })}
              placeholder="{{labels.instance}}"
              data-testid="route-variable"
            />
          </label>
        ))}
        {preview ? (
          <div data-testid="route-preview">
            <Typography.Text type="secondary">{t('oncall.routes.preview')}</Typography.Text>
            <div className="oncall-preview">{preview.text}</div>
            <IssueList issues={preview.errors} type="error" />
            <IssueList issues={preview.warnings} type="warning" />
          </div>
        ) : null}
        <Flex gap={16} wrap style={{ marginTop: 8 }}>
          <Checkbox checked={d.isDefault} onChange={(e) => set({ isDefault: e.target.checked })} data-testid="route-default">
            {t('oncall.routes.isDefault')}
          </Checkbox>
        </Flex>
        <div style={{ marginTop: 8 }}>
          <Checkbox checked={d.callOnResolved} onChange={(e) => set({ callOnResolved: e.target.checked })} data-testid="route-call-on-resolved">
            {t('oncall.routes.callOnResolved')}
          </Checkbox>
          <Typography.Paragraph type="secondary" style={{ margin: '2px 0 0 24px' }}>
            {t('oncall.routes.callOnResolvedHint')}
          </Typography.Paragraph>
        </div>
        <label className="oncall-field">
          <span>{t('oncall.routes.throughQuietHours')}</span>
          <Select
            mode="tags"
            value={d.throughQuietHours}
            onChange={(v: string[]) => set({ throughQuietHours: v.map((s) => s.toLowerCase()) })}
            options={['critical'].map((v) => ({ value: v }))}
          />
        </label>
      </div>
    </Modal>
  );
}
