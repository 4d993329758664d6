// The template library: the app's copy of the templates registered with the provider. List with
// search and status filter; add, edit, delete; paste, import (JSON/CSV, checked row by row before
// saving) and export (JSON/CSV).
import { useState } from 'react';
import { Alert, Button, Dropdown, Empty, Flex, Input, Segmented, Space, Typography } from 'antd';
import {
  DownloadOutlined,
  DownOutlined,
  ExperimentOutlined,
  ImportOutlined,
  PlusOutlined,
  ReloadOutlined,
  SearchOutlined,
  SnippetsOutlined,
} from '@ant-design/icons';
import { matchesAny } from '../../../../common/domain/search';
import { useTranslation } from 'react-i18next';
import type { TemplateView } from '../../../../common/contract';
import { describeError, type IpcError } from '../../app/api';
import { downloadText } from '../../app/browser-io';
import { ImportDialog, type ImportMode } from './ImportDialog';
import { TemplateFormDrawer } from './TemplateFormDrawer';
import { TemplateTable } from './TemplateTable';
import { exportCsv, exportFileName, exportJson } from './template-io';
import { useAddDemoTemplates, useRemoveTemplate, useTemplates } from './use-templates';
import { useFeedback } from '../../app/feedback';
import './templates.css';

type Filter = 'all' | 'approved' | 'pending';
type FormState = { open: false } | { open: true; template: TemplateView | null };

export function TemplatesScreen() {
  const { t } = useTranslation();
  const { message, modal } = useFeedback();
  const { templates, loading, error, reload } = useTemplates();
  const removing = useRemoveTemplate();
  const [query, setQuery] = useState('');
  const [filter, setFilter] = useState<Filter>('all');
  const [formState, setFormState] = useState<FormState>({ open: false });
  const [importMode, setImportMode] = useState<ImportMode | null>(null);
  const demos = useAddDemoTemplates(t);
  const addDemos = () =>
    demos.mutate(undefined, {
      onSuccess: (result) => void message.success(t('templates.demoAdded', { count: result.added })),
      onError: (e) => void message.error(describeError(t, e)),
    });

  const list = templates ?? [];
  const counts: Record<Filter, number> = { all: list.length, approved: list.filter((x) => x.approved).length, pending: list.filter((x) => !x.approved).length };
  // Name or text, by its pinyin too (发货通知 by "fh"): the one matching rule (common/domain/search).
  const shown = list.filter((x) => (filter === 'all' || x.approved === (filter === 'approved')) && matchesAny([x.name, x.content], query));

  const openAdd = () => setFormState({ open: true, template: null });

  const confirmDelete = (tpl: TemplateView) => {
    modal.confirm({
      title: t('templates.confirmDelete.title', { name: tpl.name }),
      content: t('templates.confirmDelete.body'),
      okText: t('templates.confirmDelete.ok'),
      okButtonProps: { danger: true },
      cancelText: t('common.cancel'),
      onOk: () =>
        removing.mutateAsync(tpl).then(
          () => void message.success(t('templates.deleted', { name: tpl.name })),
          (e: IpcError) => void message.error(describeError(t, e)),
        ),
    });
  };

  const exportAs = (kind: 'json' | 'csv') => {
    const file = exportFileName(kind);
    if (kind === 'json') downloadText(file, exportJson(list), 'application/json');
    else downloadText(file, exportCsv(list), 'text/csv;charset=utf-8');
    void message.success(t('templates.exported', { count: list.length, file }));
  };

  const empty =
    templates && templates.length === 0 ? (
      <Empty description={t('templates.empty')} data-testid="templates-empty">
        <Space wrap style={{ justifyContent: 'center' }}>
          <Button type="primary" icon={<PlusOutlined />} onClick={openAdd}>
            {t('templates.add')}
          </Button>
          <Button icon={<SnippetsOutlined />} onClick={() => setImportMode('paste')}>
            {t('templates.paste')}
          </Button>
          <Button icon={<ImportOutlined />} onClick={() => setImportMode('file')}>
            {t('templates.import')}
          </Button>
          <Button type="link" icon={<ExperimentOutlined />} loading={demos.isPending} onClick={addDemos} data-testid="templates-add-demo">
            {t('templates.emptyDemo')}
          </Button>
        </Space>
      </Empty>
    ) : (
      <Empty description={t('templates.noMatch')} data-testid="templates-no-match">
        <Button onClick={() => (setQuery(''), setFilter('all'))}>{t('templates.clearSearch')}</Button>
      </Empty>
    );

  return (
    <section aria-labelledby="templates-title">
      <Flex align="flex-start" justify="space-between" gap={24} style={{ marginBottom: 16 }}>
        <div style={{ minWidth: 0 }}>
          <Typography.Title level={3} id="templates-title" style={{ marginTop: 0, marginBottom: 4 }}>
            {t('templates.title')}
          </Typography.Title>
          <Typography.Paragraph type="secondary" style={{ marginBottom: 0, maxWidth: 760 }}>
            {t('templates.intro')}
          </Typography.Paragraph>
        </div>
        <Button type="primary" icon={<PlusOutlined />} onClick={openAdd} data-testid="add-template">
          {t('templates.add')}
        </Button>
      </Flex>

      {error ? (
        <Alert
          type="error"
          showIcon
          title={t('templates.loadFailed')}
          description={describeError(t, error)}
          action={
            <Button icon={<ReloadOutlined />} onClick={reload}>
              {t('common.retry')}
            </Button>
          }
          style={{ marginBottom: 16 }}
        />
      ) : null}

      <Flex align="center" justify="space-between" gap={12} wrap style={{ marginBottom: 12 }}>
        <Space wrap>
          <Input
            allowClear
            prefix={<SearchOutlined aria-hidden />}
            placeholder={t('templates.search')}
            aria-label={t('templates.searchLabel')}
            value={query}
            onChange={(e) => setQuery(e.target.value)}
            style={{ width: 280 }}
            data-testid="template-search"
          />
          <Segmented<Filter>
            aria-label={t('templates.filterLabel')}
            value={filter}
            onChange={setFilter}
            options={(['all', 'approved', 'pending'] as const).map((f) => ({ value: f, label: t(`templates.filter.${f}`, { count: counts[f] }) }))}
            data-testid="template-filter"
          />
        </Space>
        <Space wrap>
          <Button icon={<SnippetsOutlined />} onClick={() => setImportMode('paste')} data-testid="paste-templates">
            {t('templates.paste')}
          </Button>
          <Button icon={<ImportOutlined />} onClick={() => setImportMode('file')} data-testid="import-templates">
            {t('templates.import')}
          </Button>
          <Dropdown
            disabled={!list.length}
            trigger={['click']}
            menu={{
              items: [
                { key: 'json', label: t('templates.exportJson') },
                { key: 'csv', label: t('templates.exportCsv') },
              ],
              onClick: ({ key }) => exportAs(key === 'csv' ? 'csv' : 'json'),
            }}
          >
            <Button icon={<DownloadOutlined />} data-testid="export-templates">
              {t('templates.export')} <DownOutlined aria-hidden />
            </Button>
          </Dropdown>
        </Space>
      </Flex>

      <TemplateTable templates={shown} loading={loading} empty={empty} onEdit={(tpl) => setFormState({ open: true, template: tpl })} onDelete={confirmDelete} />

      <TemplateFormDrawer
        open={formState.open}
        template={formState.open ? formState.template : null}
        existing={list}
        onClose={() => setFormState({ open: false })}
        onSaved={() => setFormState({ open: false })}
      />

      <ImportDialog
        mode={importMode}
        existing={list}
        onClose={() => setImportMode(null)}
        onImported={(saved, skipped) => {
          setImportMode(null);
          void message.success(skipped ? t('templates.importedSkipped', { count: saved, skipped }) : t('templates.imported', { count: saved }));
        }}
      />
    </section>
  );
}
