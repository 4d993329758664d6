// "Map this reply…": a captured send, status or balance reply (or a receipt) as a tree; the user picks
// the field for the message ID, the state, the duration or the balance, and says what each value seen means. A preview
// reads every captured reply of the profile again with the mapping ("N of M now resolve"); saving
// gives the profile this dialect (its own) and main reads its open calls again.
import { useEffect, useMemo, useState } from 'react';
import { Alert, Button, Descriptions, Drawer, Empty, Input, Segmented, Select, Skeleton, Space, Table, Tag, Tree, Typography } from 'antd';
import type { DataNode } from 'antd/es/tree';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { MAPPABLE_STATES, readBalance, readReceipts, readSend, readStatus, type Dialect, type MappableState } from '../../../../common/dialects';
import type { SeenValue } from '../../../../common/contract';
import { describeError } from '../../app/api';
import './dialects.css';
import { profilesQuery } from '../../app/query';
import { useDialectPreview, useDialectReply, useSaveTaughtDialect } from './data';
import { currentLanguage } from '../../i18n';
import {
  applyMapping,
  applyPick,
  ownDialect,
  pathsOf,
  PREVIEW_KINDS,
  readsFewer,
  relativePath,
  statesOf,
  targetsFor,
  treeOf,
  type PreviewKind,
  type TeachTarget,
  type TreeNode,
} from './teach-model';
import { dialectName } from './dialect-names';
import { formatDuration } from '../history/history-model';
import { useFeedback } from '../../app/feedback';

const RESOLVE_TEXT = {
  sends: 'dialects.teach.resolveSends',
  status: 'dialects.teach.resolve',
  receipts: 'dialects.teach.resolveReceipts',
  balance: 'dialects.teach.resolveBalance',
} as const satisfies Record<PreviewKind, string>;

export interface TeachDrawerProps {
  /** The exchange to teach from; null: closed. */
  exchangeId: number | null;
  onClose: () => void;
}

function toData(nodes: TreeNode[], jsonTag: string): DataNode[] {
  return nodes.map((n) => ({
    key: n.key,
    title: (
      <span className="teach-node" data-path={n.key} data-testid="teach-node">
        <span className="teach-node-name">{n.name}</span>
        {n.kind === 'value' ? (
          <>
            : <code className="teach-node-value">{n.text}</code>
          </>
        ) : n.kind === 'json-text' ? (
          <Tag style={{ marginInlineStart: 6 }}>{jsonTag}</Tag>
        ) : null}
      </span>
    ),
    isLeaf: n.kind === 'value',
    children: n.children ? toData(n.children, jsonTag) : undefined,
  }));
}

function allKeys(nodes: TreeNode[]): string[] {
  return nodes.flatMap((n) => [n.key, ...(n.children ? allKeys(n.children) : [])]);
}

export function TeachDrawer({ exchangeId, onClose }: TeachDrawerProps) {
  const { t, i18n } = useTranslation();
  const lang = currentLanguage(i18n.language);
  const { message, modal } = useFeedback();
  const open = exchangeId !== null;
  const reply = useDialectReply(exchangeId);
  const profiles = useQuery(profilesQuery);
  const tree = reply.data ?? null;
  const profile = profiles.data?.find((p) => p.id === tree?.profileId) ?? null;
  const operation = tree?.operation ?? 'status';
  const [draft, setDraft] = useState<Dialect | null>(null);
  const [target, setTarget] = useState<TeachTarget>('state');
  const [name, setName] = useState('');

  useEffect(() => {
    if (!tree) return;
    setDraft(tree.dialect);
    setTarget(targetsFor(tree.operation)[0]!);
    setName(tree.dialect.id ? `${dialectName(t, tree.dialect)}${lang === 'zh-CN' ? '' : ' '}${t('dialects.teach.nameSuffix')}` : tree.dialect.name);
  }, [tree, t, lang]);

  const nodes = useMemo(() => (tree ? treeOf(tree.body) : []), [tree]);
  const data = useMemo(() => toData(nodes, t('dialects.teach.jsonText')), [nodes, t]);

  // The preview, read again by main whenever the mapping changes (the previous answer stays on screen meanwhile).
  const candidate = draft && profile ? ownDialect(draft, name || draft.name) : null;
  const preview = useDialectPreview(open, profile?.id, candidate);

  // Kinds of captured replies the candidate reads fewer of than the profile's dialect does now.
  // Only from the preview of this very mapping (not the previous one still on screen): until it has
  // come, Save waits, so a mapping that reads fewer replies is never saved without asking.
  const previewStale = preview.isPlaceholderData;
  const fewer = preview.data && !previewStale ? readsFewer(preview.data) : [];
  // Send replies whose message ID another reply gives too: calls that cannot be followed by it.
  const sharedIds = preview.data && !previewStale ? preview.data.sendIdsShared : 0;
  const fewerList = (
    <ul className="teach-fewer">
      {fewer.map((f) => (
        <li key={f.kind}>{t(RESOLVE_TEXT[f.kind], { ...f })}</li>
      ))}
    </ul>
  );

  const saving = useSaveTaughtDialect(profile?.id);
  const save = {
    isPending: saving.isPending,
    mutate: (d: Dialect) =>
      saving.mutate(d, {
        onSuccess: (r) => {
          void message.success(t('dialects.teach.saved', { name: r.profile.name }));
          onClose();
        },
        onError: (error) => void message.error(describeError(t, error)),
      }),
  };

  // What this very reply reads as with the mapping so far.
  const reading = useMemo(() => {
    if (!draft || !tree || tree.body === null || tree.body === undefined) return null;
    if (operation === 'balance') return { kind: 'balance' as const, units: readBalance(draft, tree.body).units };
    if (operation === 'send') {
      const r = readSend(draft, tree.body);
      return { kind: 'send' as const, id: r.id, count: r.count };
    }
    const r = operation === 'receipt' ? readReceipts(draft, tree.body)[0] : readStatus(draft, tree.body);
    return r ? { kind: 'state' as const, state: r.state, value: r.value, duration: r.duration } : null;
  }, [draft, tree, operation]);

  const pick = (path: string) => {
    if (!draft) return;
    setDraft(applyPick(draft, operation, target, path));
  };

  const states = draft ? statesOf(draft, operation) : {};
  // The field the dialect reads for the chosen target, in this reply's tree.
  const selectedKeys = useMemo(() => {
    if (!draft) return [];
    const want = pathsOf(draft, operation, target);
    const keys = allKeys(nodes);
    for (const w of want) {
      const hit = keys.find((k) => relativePath(draft, operation, k) === w);
      if (hit) return [hit];
    }
    return [];
  }, [draft, operation, target, nodes]);
  const values: SeenValue[] = preview.data?.values ?? [];
  const stateOptions = [
    { value: '', label: t('dialects.teach.notMapped') },
    ...MAPPABLE_STATES.map((s) => ({ value: s, label: t(`state.${s}`, { ns: 'msg' }) })),
  ];
  // What a value means now: its own mapping, else what the common words make of it, else nothing.
  const mappedOf = (v: SeenValue): string =>
    Object.entries(states).find(([k]) => k.trim().toLowerCase() === v.value.trim().toLowerCase())?.[1] ?? (v.state !== 'unknown' ? v.state : '');

  let body;
  if (reply.error) body = <Alert type="error" showIcon title={describeError(t, reply.error)} />;
  else if (!tree || !draft) body = <Skeleton active paragraph={{ rows: 10 }} />;
  else if (!profile || tree.body === null || tree.body === undefined) body = <Alert type="warning" showIcon title={t('dialects.teach.cannot')} />;
  else {
    const resolve = preview.data;
    body = (
      <div className="teach" data-testid="teach">
        <Typography.Paragraph type="secondary">{t('dialects.teach.intro')}</Typography.Paragraph>
        <div className="teach-columns">
          <section className="teach-tree" aria-label={t('dialects.teach.tree')}>
            <Typography.Title level={5} style={{ marginTop: 0 }}>
              {t('dialects.teach.tree')}
            </Typography.Title>
            <Tree
              treeData={data}
              defaultExpandedKeys={allKeys(nodes)}
              selectedKeys={selectedKeys}
              onSelect={(keys) => {
                const k = keys[0];
                if (k !== undefined) pick(String(k));
              }}
              blockNode
              data-testid="teach-tree"
            />
          </section>
          <section className="teach-side">
            <Typography.Text strong>{t('dialects.teach.pick')}</Typography.Text>
            <div style={{ margin: '6px 0 4px' }}>
              <Segmented<TeachTarget>
                value={target}
                onChange={setTarget}
                options={targetsFor(operation).map((x) => ({ value: x, label: t(`dialects.teach.target.${x}`) }))}
                data-testid="teach-target"
              />
            </div>
            <Typography.Paragraph type="secondary" style={{ fontSize: 12 }}>
              {t('dialects.teach.pickHelp')}
            </Typography.Paragraph>
            <ul className="teach-picked" data-testid="teach-picked">
              {targetsFor(operation).map((x) => {
                const p = pathsOf(draft, operation, x);
                const label = t(`dialects.teach.target.${x}`);
                return (
                  <li key={x}>
                    {p.length ? t('dialects.teach.picked', { target: label, path: p.join(' | ') }) : t('dialects.teach.notPicked', { target: label })}
                  </li>
                );
              })}
            </ul>
            {reading ? (
              <Descriptions
                size="small"
                column={1}
                title={t('dialects.teach.readsAs')}
                data-testid="teach-reading"
                items={
                  reading.kind === 'balance'
                    ? [{ key: 'units', label: t('dialects.teach.target.units'), children: reading.units ?? t('dialects.teach.unknownFigure') }]
                    : reading.kind === 'send'
                      ? [
                          {
                            key: 'id',
                            label: t('dialects.teach.target.id'),
                            children: (
                              <span data-testid="teach-reading-id" data-id={reading.id ?? ''}>
                                {reading.id ?? t('dialects.teach.unknownFigure')}
                              </span>
                            ),
                          },
                          { key: 'count', label: t('dialects.teach.target.count'), children: reading.count ?? t('dialects.teach.unknownFigure') },
                        ]
                      : [
                          {
                            key: 'state',
                            label: t('dialects.teach.target.state'),
                            children: (
                              <span data-testid="teach-reading-state" data-state={reading.state}>
                                {reading.value !== null
                                  ? t('dialects.teach.readsStateValue', { state: t(`state.${reading.state}`, { ns: 'msg' }), value: reading.value })
                                  : t(`state.${reading.state}`, { ns: 'msg' })}
                              </span>
                            ),
                          },
                          {
                            key: 'duration',
                            label: t('dialects.teach.target.duration'),
                            children: reading.duration !== null ? formatDuration(t, reading.duration) : t('dialects.teach.unknownFigure'),
                          },
                        ]
                }
              />
            ) : null}
            {operation !== 'balance' && operation !== 'send' ? (
              <>
                <Typography.Title level={5}>{t('dialects.teach.values')}</Typography.Title>
                <Table<SeenValue>
                  size="small"
                  rowKey="value"
                  pagination={false}
                  dataSource={values}
                  locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('dialects.teach.noValues')} /> }}
                  onRow={(v) => ({ 'data-testid': 'teach-value', 'data-value': v.value }) as React.HTMLAttributes<HTMLElement>}
                  columns={[
                    { key: 'value', title: t('dialects.teach.valueColumn'), render: (_, v) => <code>{v.value}</code> },
                    { key: 'count', title: t('dialects.teach.countColumn'), width: 96, dataIndex: 'count' },
                    {
                      key: 'means',
                      title: t('dialects.teach.meansColumn'),
                      width: 190,
                      render: (_, v) => (
                        <Select
                          size="small"
                          style={{ width: '100%' }}
                          value={mappedOf(v)}
                          options={stateOptions}
                          onChange={(s: string) => setDraft(applyMapping(draft, operation, v.value, s === '' ? null : (s as MappableState)))}
                          aria-label={`${t('dialects.teach.meansColumn')} ${v.value}`}
                          data-testid="teach-map"
                        />
                      ),
                    },
                  ]}
                />
              </>
            ) : null}
            <Typography.Title level={5}>{t('dialects.teach.preview')}</Typography.Title>
            <div data-testid="teach-preview" aria-live="polite">
              {resolve ? (
                <ul className="teach-resolve">
                  {PREVIEW_KINDS.map((kind) =>
                    resolve[kind].total ? (
                      <li
                        key={kind}
                        data-testid={`teach-resolve-${kind}`}
                        data-resolved={resolve[kind].resolved}
                        data-total={resolve[kind].total}
                        data-before={resolve[kind].before}
                      >
                        {t(RESOLVE_TEXT[kind], { ...resolve[kind] })}
                      </li>
                    ) : null,
                  )}
                </ul>
              ) : (
                <Typography.Text type="secondary">{t('dialects.teach.previewing')}</Typography.Text>
              )}
              {fewer.length ? <Alert type="warning" showIcon data-testid="teach-fewer" title={t('dialects.teach.fewer')} description={fewerList} /> : null}
              {sharedIds ? (
                <Alert
                  type="warning"
                  showIcon
                  data-testid="teach-shared-ids"
                  data-count={sharedIds}
                  title={t('dialects.teach.sharedIds', { count: sharedIds })}
                  description={t('dialects.teach.sharedIdsWhy')}
                />
              ) : null}
              {preview.error ? <Alert type="error" showIcon title={describeError(t, preview.error)} /> : null}
            </div>
          </section>
        </div>
      </div>
    );
  }

  return (
    <Drawer
      open={open}
      onClose={onClose}
      size={Math.min(1100, Math.max(720, window.innerWidth - 120))}
      title={t('dialects.teach.title', { name: profile?.name ?? '' })}
      destroyOnHidden
      data-testid="teach-drawer"
      footer={
        tree && draft && profile ? (
          <Space style={{ display: 'flex', justifyContent: 'flex-end' }}>
            <label htmlFor="teach-name">{t('dialects.teach.name')}</label>
            <Input id="teach-name" value={name} maxLength={80} onChange={(e) => setName(e.target.value)} style={{ width: 280 }} data-testid="teach-name" />
            <Button onClick={onClose}>{t('common.cancel')}</Button>
            <Button
              type="primary"
              loading={save.isPending}
              disabled={!name.trim() || previewStale}
              onClick={() => {
                const d = ownDialect(draft, name);
                if (!fewer.length) return save.mutate(d);
                // Fewer captured replies would read than now: said, and saved only if the person confirms.
                modal.confirm({
                  title: t('dialects.teach.fewerConfirm'),
                  content: fewerList,
                  okText: t('dialects.teach.saveAnyway'),
                  cancelText: t('common.cancel'),
                  onOk: () => save.mutate(d),
                });
              }}
              data-testid="teach-save"
            >
              {t('dialects.teach.save')}
            </Button>
          </Space>
        ) : null
      }
    >
      {body}
    </Drawer>
  );
}
