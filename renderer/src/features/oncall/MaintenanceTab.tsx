// Maintenance windows: while one is open, alerts its matchers match are held (an incident is kept,
// nobody is called). Matchers are typed as Alertmanager writes them and checked as they are typed;
// from–to in this computer's local time. Below, the incidents the windows held.
import { useState } from 'react';
import { Button, Empty, Flex, Input, Modal, Table, Tag, Typography } from 'antd';
import { DeleteOutlined, EditOutlined, PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import { codedArgs, MESSAGES_NS } from '../../../../common/messages';
import { formatMatcher, parseMatchers } from '../../../../common/paging/matchers';
import { windowOpen } from '../../../../common/paging/maintenance';
import type { IncidentRecord } from '../../../../common/paging/records';
import type { MaintenanceWindow } from '../../../../common/paging/types';
import { ErrorView } from './ErrorView';
import { useHeld, useMaintenance, useRemoveWindow, useSaveWindow } from './data';

const HOUR = 3_600_000;

function say(t: TFunction, [key, options]: [string, object]): string {
  return (t as unknown as (k: string, o: object) => string)(key, { ...options, ns: MESSAGES_NS });
}

const pad = (n: number) => String(n).padStart(2, '0');
/** Epoch ms → a datetime-local value ('YYYY-MM-DDTHH:MM') in this computer's time zone. */
function toLocalInput(ms: number): string {
  const d = new Date(ms);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}
/** A datetime-local value → epoch ms in this computer's time zone (NaN when incomplete). */
function fromLocalInput(v: string): number {
  return /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/.test(v) ? new Date(v).getTime() : NaN;
}
function local(ms: number, lang: string): string {
  return new Date(ms).toLocaleString(lang, { year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hour12: false });
}

interface Draft {
  id?: number;
  name: string;
  matchers: string;
  from: string;
  to: string;
}

const draftOf = (w: MaintenanceWindow): Draft => ({
  id: w.id,
  name: w.name,
  matchers: w.matchers.map(formatMatcher).join(', '),
  from: toLocalInput(w.from),
  to: toLocalInput(w.to),
});

export function MaintenanceTab() {
  const { t, i18n } = useTranslation();
  const windows = useMaintenance();
  const held = useHeld();
  const remove = useRemoveWindow();
  const [editing, setEditing] = useState<Draft | null>(null);
  const now = Date.now();
  const fresh = (): Draft => ({ name: '', matchers: '', from: toLocalInput(now), to: toLocalInput(now + 2 * HOUR) });
  const windowName = (id: number | null) => windows.data?.find((w) => w.id === id)?.name ?? (id === null ? '—' : `#${id}`);

  return (
    <div data-testid="maintenance-tab">
      <ErrorView error={windows.error ?? held.error ?? remove.error} />
      <Flex justify="space-between" align="center" gap={12} style={{ marginBottom: 8 }}>
        <Typography.Text type="secondary">{t('oncall.maintenance.intro')}</Typography.Text>
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing(fresh())} data-testid="window-add">
          {t('oncall.maintenance.add')}
        </Button>
      </Flex>
      <Table<MaintenanceWindow>
        size="small"
        rowKey="id"
        pagination={false}
        loading={windows.isPending}
        dataSource={windows.data ?? []}
        locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('oncall.maintenance.empty')} /> }}
        onRow={() => ({ 'data-testid': 'window-row' }) as React.HTMLAttributes<HTMLElement>}
        columns={[
          {
            title: t('oncall.maintenance.name'),
            render: (_, w) => (
              <span>
                {w.name}{' '}
                {windowOpen(w, now) ? <Tag color="orange">{t('oncall.maintenance.open')}</Tag> : w.to <= now ? <Tag>{t('oncall.maintenance.past')}</Tag> : null}
              </span>
            ),
          },
          {
            title: t('oncall.maintenance.matchers'),
            render: (_, w) => <Typography.Text code>{w.matchers.map(formatMatcher).join(', ')}</Typography.Text>,
          },
          {
            title: t('oncall.maintenance.when'),
            render: (_, w) => (
              <span data-testid="window-when">{t('oncall.maintenance.range', { from: local(w.from, i18n.language), to: local(w.to, i18n.language) })}</span>
            ),
          },
          {
            title: '',
            width: 80,
            render: (_, w) => (
              <Flex gap={4}>
                <Button
                  size="small"
                  type="text"
                  icon={<EditOutlined />}
                  aria-label={t('oncall.edit', { name: w.name })}
                  onClick={() => setEditing(draftOf(w))}
                />
                <Button
                  size="small"
                  type="text"
                  danger
                  icon={<DeleteOutlined />}
                  aria-label={t('oncall.remove', { name: w.name })}
                  onClick={() => remove.mutate(w.id)}
                  data-testid="window-remove"
                />
              </Flex>
            ),
          },
        ]}
      />
      <Typography.Title level={5} style={{ marginTop: 16 }}>
        {t('oncall.maintenance.held')}
      </Typography.Title>
      <Table<IncidentRecord>
        size="small"
        rowKey="id"
        pagination={false}
        loading={held.isPending}
        dataSource={held.data ?? []}
        locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('oncall.maintenance.heldEmpty')} /> }}
        onRow={() => ({ 'data-testid': 'held-row' }) as React.HTMLAttributes<HTMLElement>}
        columns={[
          { title: t('oncall.maintenance.incident'), render: (_, i) => `#${i.id} ${i.title}` },
          { title: t('oncall.incidents.opened'), render: (_, i) => local(i.openedAt, i18n.language) },
          { title: t('oncall.maintenance.heldBy'), render: (_, i) => windowName(i.heldBy) },
          { title: t('oncall.incidents.state'), render: (_, i) => <Tag>{t(`oncall.state.${i.state}`)}</Tag> },
        ]}
      />
      {editing ? <WindowForm draft={editing} onClose={() => setEditing(null)} /> : null}
    </div>
  );
}

function WindowForm({ draft, onClose }: { draft: Draft; onClose: () => void }) {
  const { t } = useTranslation();
  const save = useSaveWindow();
  const [d, setD] = useState(draft);
  const set = (patch: Partial<Draft>) => setD((x) => ({ ...x, ...patch }));
  const parsed = parseMatchers(d.matchers);
  const matcherError = !parsed.ok
    ? say(t, codedArgs('paging.matcherSyntax', { code: parsed.error.params.problem, params: { at: parsed.error.params.at + 1 } }))
    : parsed.matchers.length === 0 && d.matchers.trim()
      ? t('oncall.maintenance.matchersRequired')
      : null;
  const from = fromLocalInput(d.from);
  const to = fromLocalInput(d.to);
  const timeError = Number.isNaN(from) || Number.isNaN(to) ? t('oncall.maintenance.timeRequired') : to <= from ? t('oncall.maintenance.toAfterFrom') : null;
  const ready = d.name.trim() && parsed.ok && parsed.matchers.length > 0 && !timeError;

  const submit = () => {
    if (!ready || !parsed.ok) return;
    save.mutate({ id: d.id, name: d.name.trim(), matchers: parsed.matchers, from, to }, { onSuccess: onClose });
  };

  return (
    <Modal
      open
      title={d.id ? t('oncall.maintenance.edit') : t('oncall.maintenance.add')}
      onCancel={onClose}
      onOk={submit}
      okText={t('common.save')}
      cancelText={t('common.cancel')}
      okButtonProps={{ disabled: !ready, loading: save.isPending, 'data-testid': 'window-save' }}
      width={600}
    >
      <div className="oncall-form" data-testid="window-form">
        <ErrorView error={save.error} />
        <label className="oncall-field">
          <span>{t('oncall.maintenance.name')}</span>
          <Input value={d.name} onChange={(e) => set({ name: e.target.value })} data-testid="window-name" />
        </label>
        <label className="oncall-field">
          <span>{t('oncall.maintenance.matchers')}</span>
          <Input
            value={d.matchers}
            onChange={(e) => set({ matchers: e.target.value })}
            placeholder={'{service="db", env=~"prod|staging"}'}
            status={matcherError ? 'error' : undefined}
            data-testid="window-matchers"
          />
        </label>
        {matcherError ? (
          <Typography.Text type="danger" data-testid="window-matchers-error" className="oncall-field-error">
            {matcherError}
          </Typography.Text>
        ) : (
          <Typography.Text type="secondary" className="oncall-field-error">
            {t('oncall.maintenance.matchersHelp')}
          </Typography.Text>
        )}
        <Flex gap={12} wrap>
          <label className="oncall-field" style={{ flex: 1, minWidth: 200 }}>
            <span>{t('oncall.maintenance.from')}</span>
            <Input type="datetime-local" value={d.from} onChange={(e) => set({ from: e.target.value })} data-testid="window-from" />
          </label>
          <label className="oncall-field" style={{ flex: 1, minWidth: 200 }}>
            <span>{t('oncall.maintenance.to')}</span>
            <Input
              type="datetime-local"
              value={d.to}
              onChange={(e) => set({ to: e.target.value })}
              status={timeError ? 'error' : undefined}
              data-testid="window-to"
            />
          </label>
        </Flex>
        {timeError ? (
          <Typography.Text type="danger" data-testid="window-time-error" className="oncall-field-error">
            {timeError}
          </Typography.Text>
        ) : (
          <Typography.Text type="secondary" className="oncall-field-error">
            {t('oncall.maintenance.localTime')}
          </Typography.Text>
        )}
      </div>
    </Modal>
  );
}
