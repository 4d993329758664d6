// Collections of saved requests (open one in the raw client, run them all, export or import a file,
// edit a collection's variables) and the environments (a profile and its variables).
import { useState } from 'react';
import { Alert, Button, Collapse, Drawer, Dropdown, Empty, Input, Modal, Select, Space, Spin, Typography } from 'antd';
import { DeleteOutlined, DownloadOutlined, EnvironmentOutlined, MoreOutlined, PlayCircleOutlined, PlusOutlined, UploadOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { CollectionView, EnvironmentView, RunView, Variable } from '../../../../common/contract';
import { describeError, type IpcError } from '../../app/api';
import { downloadText } from '../../app/browser-io';
import { profilesQuery } from '../../app/query';
import { RunResults, RunSummaryLine } from './RunResults';
import { draftStore, useDraft } from './workbench-store';
import { useFeedback } from '../../app/feedback';
import {
  useCollection,
  useCollectionFiles,
  useCollections,
  useEnvironmentChanges,
  useEnvironments,
  useLoadCollection,
  useRunCollection,
  useSaveCollection,
} from './data';

/** name = value rows. */
function VariablesEditor({ value, onChange }: { value: Variable[]; onChange: (v: Variable[]) => void }) {
  const { t } = useTranslation();
  return (
    <div data-testid="wb-variables-editor">
      {value.map((v, i) => (
        <Space.Compact key={i} className="wb-row">
          <Input
            value={v.name}
            placeholder={t('workbench.vars.name')}
            onChange={(e) => onChange(value.map((x, j) => (j === i ? { ...x, name: e.target.value } : x)))}
            className="wb-mono wb-key"
            data-testid="wb-var-name"
          />
          <Input
            value={v.value}
            placeholder={t('workbench.vars.value')}
            onChange={(e) => onChange(value.map((x, j) => (j === i ? { ...x, value: e.target.value } : x)))}
            className="wb-mono"
            data-testid="wb-var-value"
          />
          <Button icon={<DeleteOutlined />} onClick={() => onChange(value.filter((_, j) => j !== i))} aria-label={t('workbench.remove', { n: i + 1 })} />
        </Space.Compact>
      ))}
      <Button icon={<PlusOutlined />} size="small" onClick={() => onChange([...value, { name: '', value: '' }])} data-testid="wb-add-var">
        {t('workbench.vars.add')}
      </Button>
      <Typography.Paragraph type="secondary" className="wb-hint" style={{ marginTop: 6 }}>
        {t('workbench.vars.hint', { example: '{{mobile}}' })}
      </Typography.Paragraph>
    </div>
  );
}

function CollectionModal({ collection, open, onClose }: { collection: CollectionView | null; open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const [name, setName] = useState(collection?.name ?? '');
  const [variables, setVariables] = useState<Variable[]>(collection?.variables ?? []);
  const save = useSaveCollection(onClose);
  return (
    <Modal
      open={open}
      title={collection ? t('workbench.collections.edit', { name: collection.name }) : t('workbench.collections.new')}
      onCancel={onClose}
      onOk={() =>
        save.mutate({ id: collection?.id, name: name.trim(), description: collection?.description ?? '', variables: variables.filter((v) => v.name.trim()) })
      }
      okText={t('common.save')}
      cancelText={t('common.cancel')}
      okButtonProps={{ disabled: !name.trim(), loading: save.isPending, ...({ 'data-testid': 'wb-collection-ok' } as object) }}
      destroyOnHidden
    >
      <Typography.Text>{t('workbench.collections.name')}</Typography.Text>
      <Input value={name} onChange={(e) => setName(e.target.value)} maxLength={200} style={{ marginBottom: 12 }} data-testid="wb-collection-name" />
      <Typography.Text strong>{t('workbench.collections.variables')}</Typography.Text>
      <VariablesEditor value={variables} onChange={setVariables} />
      {save.error ? <Alert type="error" showIcon title={describeError(t, save.error)} style={{ marginTop: 8 }} data-testid="wb-collection-error" /> : null}
    </Modal>
  );
}

function EnvironmentsModal({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const profiles = useQuery(profilesQuery).data ?? [];
  const list = useEnvironments().data ?? [];
  const [editing, setEditing] = useState<Partial<EnvironmentView> | null>(null);
  const { save, remove } = useEnvironmentChanges(
    () => profiles[0]?.id ?? '',
    () => setEditing(null),
  );
  return (
    <Modal open={open} title={t('workbench.env.title')} onCancel={onClose} footer={null} width={640} destroyOnHidden>
      <Typography.Paragraph type="secondary">{t('workbench.env.hint')}</Typography.Paragraph>
      {editing ? (
        <div data-testid="wb-env-form">
          <Space wrap style={{ marginBottom: 8 }}>
            <Input
              value={editing.name ?? ''}
              onChange={(e) => setEditing({ ...editing, name: e.target.value })}
              placeholder={t('workbench.env.name')}
              style={{ width: 200 }}
              data-testid="wb-env-name"
            />
            <Select<string>
              value={editing.profileId ?? profiles[0]?.id}
              onChange={(profileId) => setEditing({ ...editing, profileId })}
              options={profiles.map((p) => ({ value: p.id, label: p.name }))}
              style={{ width: 200 }}
              aria-label={t('workbench.profile')}
            />
          </Space>
          <VariablesEditor value={editing.variables ?? []} onChange={(variables) => setEditing({ ...editing, variables })} />
          {save.error ? <Alert type="error" showIcon title={describeError(t, save.error)} style={{ marginBottom: 8 }} /> : null}
          <Space>
            <Button type="primary" onClick={() => save.mutate(editing)} loading={save.isPending} disabled={!editing.name?.trim()} data-testid="wb-env-save">
              {t('common.save')}
            </Button>
            <Button onClick={() => setEditing(null)}>{t('common.cancel')}</Button>
          </Space>
        </div>
      ) : (
        <>
          {list.length ? (
            <ul className="wb-env-list">
              {list.map((e) => (
                <li key={e.id} data-testid="wb-env">
                  <Typography.Text strong>{e.name}</Typography.Text>
                  <Typography.Text type="secondary">{profiles.find((p) => p.id === e.profileId)?.name ?? e.profileId}</Typography.Text>
                  <Typography.Text type="secondary">{t('workbench.env.count', { count: e.variables.length })}</Typography.Text>
                  <span style={{ flex: 1 }} />
                  <Button size="small" onClick={() => setEditing(e)}>
                    {t('workbench.env.edit')}
                  </Button>
                  <Button
                    size="small"
                    danger
                    icon={<DeleteOutlined />}
                    onClick={() => remove.mutate(e.id)}
                    aria-label={t('workbench.env.remove', { name: e.name })}
                  />
                </li>
              ))}
            </ul>
          ) : (
            <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('workbench.env.none')} />
          )}
          <Button icon={<PlusOutlined />} onClick={() => setEditing({ name: '', variables: [] })} data-testid="wb-env-add">
            {t('workbench.env.add')}
          </Button>
        </>
      )}
    </Modal>
  );
}

function RunDrawer({ run, onClose }: { run: RunView | null; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Drawer
      open={run !== null}
      onClose={onClose}
      size={Math.min(900, Math.max(560, window.innerWidth - 200))}
      title={t('workbench.run.title', { id: run?.id ?? '' })}
      destroyOnHidden
      data-testid="wb-run-drawer"
    >
      {run ? (
        <>
          <RunSummaryLine run={run} />
          <RunResults results={run.results} />
        </>
      ) : null}
    </Drawer>
  );
}

function CollectionItem({ id, onRun }: { id: number; onRun: (c: CollectionView) => void }) {
  const { t } = useTranslation();
  const draft = useDraft();
  const c = useCollection(id);
  if (c.isLoading) return <Spin size="small" />;
  if (!c.data) return c.error ? <Typography.Text type="danger">{describeError(t, c.error)}</Typography.Text> : null;
  const open = (r: CollectionView['requests'][number]) =>
    draftStore.set((d) => ({
      ...d,
      request: r.request,
      assertions: r.assertions,
      captures: r.captures,
      savedId: r.id,
      collectionId: r.collectionId,
      name: r.name,
      dirty: false,
    }));
  return (
    <div data-testid="wb-collection-requests">
      {c.data.requests.length ? (
        <ul className="wb-requests">
          {c.data.requests.map((r) => (
            <li key={r.id}>
              <Button
                type="text"
                size="small"
                className={`wb-request${draft.savedId === r.id ? ' wb-request-open' : ''}`}
                onClick={() => open(r)}
                data-testid="wb-saved-request"
              >
                <code className="wb-method">{r.request.method}</code>
                <span className="wb-request-title">{r.name}</span>
              </Button>
            </li>
          ))}
        </ul>
      ) : (
        <Typography.Text type="secondary">{t('workbench.collections.empty')}</Typography.Text>
      )}
      <Button size="small" icon={<PlayCircleOutlined />} onClick={() => onRun(c.data!)} disabled={!c.data.requests.length} data-testid="wb-run-collection">
        {t('workbench.collections.run')}
      </Button>
    </div>
  );
}

export function CollectionsPanel() {
  const { t } = useTranslation();
  const { message, modal } = useFeedback();
  const draft = useDraft();
  const list = useCollections();
  const environments = useEnvironments().data ?? [];
  const profiles = useQuery(profilesQuery).data ?? [];
  const [editing, setEditing] = useState<{ collection: CollectionView | null } | null>(null);
  const [envOpen, setEnvOpen] = useState(false);
  const [run, setRun] = useState<RunView | null>(null);

  const failed = (e: IpcError) => void message.error(describeError(t, e));
  const running = useRunCollection(setRun, failed);
  const runCollection = (c: CollectionView) => {
    const environment = environments.find((e) => e.id === draft.environmentId);
    running.mutate({ id: c.id, environmentId: environment?.id ?? null, profileId: environment ? undefined : (draft.profileId ?? profiles[0]?.id) });
  };
  const { importing, exporting, removing, removeRequest } = useCollectionFiles(
    (r) => {
      void message.success(t('workbench.collections.imported', { name: r.collection.name, count: r.collection.requests.length }));
      if (r.warnings.length) {
        modal.warning({
          title: t('workbench.collections.importWarnings'),
          content: (
            <ul className="wb-list" data-testid="wb-import-file-warnings">
              {r.warnings.map((w, i) => (
                <li key={i}>{t(`workbench.fileWarning.${w.code}`, { ns: 'msg', ...w.params })}</li>
              ))}
            </ul>
          ),
        });
      }
    },
    (f) => downloadText(f.fileName, f.json, 'application/json'),
    failed,
  );

  const pickFile = () => {
    const input = document.createElement('input');
    input.type = 'file';
    input.accept = '.json,application/json';
    input.onchange = () => {
      const file = input.files?.[0];
      if (file) void file.text().then((text) => importing.mutate(text));
    };
    input.click();
  };

  const loadCollection = useLoadCollection();
  const collections = list.data ?? [];

  return (
    <aside className="wb-side" aria-label={t('workbench.collections.title')} data-testid="wb-collections">
      <div className="wb-side-head">
        <Typography.Text strong>{t('workbench.collections.title')}</Typography.Text>
        <span style={{ flex: 1 }} />
        <Button
          size="small"
          icon={<PlusOutlined />}
          onClick={() => setEditing({ collection: null })}
          aria-label={t('workbench.collections.new')}
          title={t('workbench.collections.new')}
          data-testid="wb-new-collection"
        />
        <Button
          size="small"
          icon={<UploadOutlined />}
          onClick={pickFile}
          loading={importing.isPending}
          aria-label={t('workbench.collections.import')}
          title={t('workbench.collections.import')}
          data-testid="wb-import-collection"
        />
        <Button
          size="small"
          icon={<EnvironmentOutlined />}
          onClick={() => setEnvOpen(true)}
          aria-label={t('workbench.env.title')}
          title={t('workbench.env.title')}
          data-testid="wb-environments"
        />
      </div>
      {list.error ? <Alert type="error" showIcon title={describeError(t, list.error)} /> : null}
      {!collections.length && !list.isLoading ? <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('workbench.collections.none')} /> : null}
      <Collapse
        size="small"
        ghost
        items={collections.map((c) => ({
          key: c.id,
          label: (
            <span className="wb-collection-label" data-testid="wb-collection" data-collection-id={c.id}>
              {c.name} <Typography.Text type="secondary">({c.requests})</Typography.Text>
            </span>
          ),
          extra: (
            <Dropdown
              trigger={['click']}
              menu={{
                items: [
                  {
                    key: 'edit',
                    label: t('workbench.collections.editMenu'),
                    onClick: () => void loadCollection(c.id).then((full) => setEditing({ collection: full })),
                  },
                  { key: 'export', icon: <DownloadOutlined />, label: t('workbench.collections.export'), onClick: () => exporting.mutate(c.id) },
                  ...(draft.savedId !== null && draft.collectionId === c.id
                    ? [
                        {
                          key: 'remove-request',
                          label: t('workbench.collections.removeRequest', { name: draft.name }),
                          onClick: () => removeRequest.mutate(draft.savedId!),
                        },
                      ]
                    : []),
                  {
                    key: 'remove',
                    danger: true,
                    icon: <DeleteOutlined />,
                    label: t('workbench.collections.remove'),
                    onClick: () =>
                      modal.confirm({
                        title: t('workbench.collections.removeConfirm', { name: c.name }),
                        okButtonProps: { danger: true },
                        okText: t('workbench.collections.remove'),
                        cancelText: t('common.cancel'),
                        onOk: () => removing.mutate(c.id),
                      }),
                  },
                ],
              }}
            >
              <Button
                size="small"
                type="text"
                icon={<MoreOutlined />}
                onClick={(e) => e.stopPropagation()}
                aria-label={t('workbench.collections.menu', { name: c.name })}
                data-testid="wb-collection-menu"
              />
            </Dropdown>
          ),
          children: <CollectionItem id={c.id} onRun={runCollection} />,
        }))}
      />
      {running.isPending ? (
        <div className="wb-running" data-testid="wb-running">
          <Spin size="small" /> {t('workbench.run.running')}
        </div>
      ) : null}
      {editing ? <CollectionModal collection={editing.collection} open onClose={() => setEditing(null)} /> : null}
      <EnvironmentsModal open={envOpen} onClose={() => setEnvOpen(false)} />
      <RunDrawer run={run} onClose={() => setRun(null)} />
    </aside>
  );
}
