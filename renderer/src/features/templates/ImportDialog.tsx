// Importing templates from a JSON or CSV file, or from pasted text: everything is read and checked
// first, and a report says, row by row, what will be added, updated or skipped (and why) before
// anything is saved through templates.import.
import { useMemo, useState, type HTMLAttributes } from 'react';
import { Alert, Button, Checkbox, Input, Modal, Space, Table, Tag, Typography, Upload } from 'antd';
import type { TableColumnsType } from 'antd';
import { FileTextOutlined, InboxOutlined, SwapOutlined } from '@ant-design/icons';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import type { TemplateView } from '../../../../common/contract';
import { describeError } from '../../app/api';
import { MarkedContent } from './MarkedContent';
import { TemplateSize } from './TemplateTable';
import { CSV_HEADERS, parseFile, parsePastedText, planImport, planSummary, type Parsed, type PlannedRow, type Where } from './template-io';
import { useImportTemplates } from './use-templates';

export type ImportMode = 'file' | 'paste';

export interface ImportDialogProps {
  mode: ImportMode | null;
  existing: readonly TemplateView[];
  onClose: () => void;
  /** Everything was saved: `saved` templates, `skipped` rows left out. */
  onImported: (saved: number, skipped: number) => void;
}

type FileState = { name: string; parsed: Parsed & { encoding?: 'utf-8' | 'gb18030' } } | null;

interface SaveFailure {
  where: Where;
  reason: string;
}

const REPORT_LIMIT = 50;

export function whereText(t: TFunction, where: Where): string {
  return t(`templates.importer.where.${where.kind}`, { n: where.n });
}

/** Why a row is skipped, in words. */
function skipReason(t: TFunction, row: PlannedRow): string {
  if (row.action === 'duplicate' && row.duplicateOf) {
    return 'name' in row.duplicateOf
      ? t('templates.importer.duplicateOfTemplate', { name: row.duplicateOf.name })
      : t('templates.importer.duplicateOfRow', { where: whereText(t, row.duplicateOf.where) });
  }
  return row.problems.map((p) => t(`templates.problem.${p.code}`, p.vars ?? {})).join(' ');
}

const csvColumns = `${CSV_HEADERS.name} / ${CSV_HEADERS.nameZh}, ${CSV_HEADERS.content} / ${CSV_HEADERS.contentZh}, ${CSV_HEADERS.approved} / ${CSV_HEADERS.approvedZh}`;

export function ImportDialog({ mode, existing, onClose, onImported }: ImportDialogProps) {
  const { t } = useTranslation();
  const [file, setFile] = useState<FileState>(null);
  const [reading, setReading] = useState(false);
  const [pasted, setPasted] = useState('');
  const [pasteApproved, setPasteApproved] = useState(false);
  const [failures, setFailures] = useState<{ saved: number; list: SaveFailure[] } | null>(null);

  const parsed = useMemo<(Parsed & { encoding?: 'utf-8' | 'gb18030' }) | null>(
    () => (mode === 'paste' ? (pasted.trim() ? parsePastedText(pasted) : null) : (file?.parsed ?? null)),
    [mode, pasted, file],
  );
  const plan = useMemo(
    () => (parsed?.ok ? planImport(parsed.rows, existing, mode === 'paste' ? pasteApproved : undefined) : null),
    [parsed, existing, mode, pasteApproved],
  );
  const summary = plan ? planSummary(plan) : null;
  const toSave = plan?.filter((r) => r.action === 'new' || r.action === 'update') ?? [];
  const skipped = plan?.filter((r) => r.action === 'duplicate' || r.action === 'error') ?? [];
  // Every row of the source is accounted for: blank rows too are said to be skipped, with where.
  const blank = parsed?.ok ? (parsed.blank ?? []) : [];
  const skippedAll: { where: PlannedRow['where']; reason: string }[] = [
    ...skipped.map((r) => ({ where: r.where, reason: skipReason(t, r) })),
    ...blank.map((where) => ({ where, reason: t('templates.importer.blank') })),
  ].sort((a, b) => a.where.n - b.where.n);

  const reset = () => {
    setFile(null);
    setPasted('');
    setPasteApproved(false);
    setFailures(null);
  };

  const readFile = async (f: File) => {
    setFailures(null);
    setReading(true);
    try {
      setFile({ name: f.name, parsed: parseFile(f.name, await f.arrayBuffer()) });
    } finally {
      setReading(false);
    }
  };

  const importing = useImportTemplates();
  const saveAll = (rows: PlannedRow[]) =>
    importing.mutate(rows, {
      onSuccess: ({ saved, failures: failed }) => {
        const list: SaveFailure[] = failed.map((f) => ({ where: f.row.where, reason: describeError(t, f.error) }));
        if (list.length) {
          setFailures({ saved, list });
          return;
        }
        reset();
        onImported(saved, skippedAll.length);
      },
    });

  const close = () => {
    reset();
    onClose();
  };

  const columns: TableColumnsType<PlannedRow> = [
    { key: 'where', title: t('templates.importer.column.where'), width: 90, render: (_: unknown, r) => whereText(t, r.where) },
    {
      key: 'name',
      title: t('templates.importer.column.name'),
      width: 130,
      ellipsis: true,
      render: (_: unknown, r) => r.name ?? <Typography.Text type="secondary">—</Typography.Text>,
    },
    {
      key: 'content',
      title: t('templates.importer.column.content'),
      render: (_: unknown, r) =>
        r.content ? <MarkedContent content={r.content} labels={r.markerNames} clamp /> : <Typography.Text type="secondary">—</Typography.Text>,
    },
    { key: 'length', title: t('templates.importer.column.length'), width: 130, render: (_: unknown, r) => <TemplateSize content={r.content} /> },
    {
      key: 'approved',
      title: t('templates.importer.column.approved'),
      width: 100,
      render: (_: unknown, r) =>
        r.action === 'error' || r.action === 'duplicate' ? (
          <Typography.Text type="secondary">—</Typography.Text>
        ) : r.approved === undefined ? (
          <Typography.Text type="secondary">{r.action === 'update' ? t('templates.importer.unchanged') : t('templates.status.pending')}</Typography.Text>
        ) : r.approved ? (
          t('templates.status.approved')
        ) : (
          t('templates.status.pending')
        ),
    },
    {
      key: 'result',
      title: t('templates.importer.column.result'),
      width: 200,
      render: (_: unknown, r) => (
        <span data-testid="import-result" data-action={r.action}>
          <Tag color={r.action === 'new' ? 'success' : r.action === 'update' ? 'processing' : r.action === 'error' ? 'error' : 'default'}>
            {t(`templates.importer.result.${r.action}`)}
          </Tag>
          {r.action === 'duplicate' || r.action === 'error' ? (
            <Typography.Text type={r.action === 'error' ? 'danger' : 'secondary'} style={{ display: 'block', fontSize: 12, marginTop: 2 }}>
              {skipReason(t, r)}
            </Typography.Text>
          ) : null}
        </span>
      ),
    },
  ];

  const report =
    plan && summary ? (
      <div data-testid="import-report">
        <Alert
          type={summary.error ? 'warning' : summary.new + summary.update ? 'success' : 'info'}
          showIcon
          role="status"
          title={t('templates.importer.summary', { total: plan.length + blank.length, new: summary.new, update: summary.update, skipped: skippedAll.length })}
          description={
            skippedAll.length ? (
              <>
                <div>{t('templates.importer.skippedTitle', { count: skippedAll.length })}</div>
                <ul className="tpl-report-list" data-testid="import-problems">
                  {skippedAll.slice(0, REPORT_LIMIT).map((r) => (
                    <li key={`${r.where.kind}-${r.where.n}`} data-testid="import-problem" data-where={`${r.where.kind}-${r.where.n}`}>
                      <Typography.Text strong>{whereText(t, r.where)}</Typography.Text>
                      {t('templates.importer.separator')}
                      {r.reason}
                    </li>
                  ))}
                </ul>
                {skippedAll.length > REPORT_LIMIT ? <div>{t('templates.importer.more', { count: skippedAll.length - REPORT_LIMIT })}</div> : null}
              </>
            ) : undefined
          }
          style={{ marginBottom: 12 }}
        />
        <Table<PlannedRow>
          size="small"
          rowKey={(r) => `${r.where.kind}-${r.where.n}`}
          columns={columns}
          dataSource={plan}
          tableLayout="fixed"
          pagination={{ pageSize: 50, hideOnSinglePage: true, showSizeChanger: false }}
          scroll={{ y: 240 }}
          aria-label={t('templates.importer.previewLabel')}
          onRow={(r) => ({ 'data-testid': 'import-row', 'data-action': r.action }) as HTMLAttributes<HTMLElement>}
        />
      </div>
    ) : null;

  return (
    <Modal
      open={mode !== null}
      onCancel={close}
      title={mode === 'paste' ? t('templates.importer.pasteTitle') : t('templates.importer.fileTitle')}
      width={960}
      centered
      destroyOnHidden
      footer={
        <Space>
          <Button onClick={close} data-testid="import-cancel">
            {failures ? t('common.close') : t('common.cancel')}
          </Button>
          {failures ? null : (
            <Button type="primary" disabled={!toSave.length} loading={importing.isPending} onClick={() => saveAll(toSave)} data-testid="import-submit">
              {toSave.length ? t('templates.importer.submit', { count: toSave.length }) : t('templates.importer.nothing')}
            </Button>
          )}
        </Space>
      }
    >
      <div data-testid="import-dialog">
        {mode === 'paste' ? (
          <>
            <label htmlFor="template-paste" style={{ display: 'block', marginBottom: 6 }}>
              {t('templates.importer.pasteLabel')}
            </label>
            <Input.TextArea
              id="template-paste"
              autoFocus
              value={pasted}
              onChange={(e) => (setPasted(e.target.value), setFailures(null))}
              autoSize={{ minRows: 4, maxRows: 8 }}
              placeholder={t('templates.importer.pastePlaceholder')}
              spellCheck={false}
              data-testid="paste-input"
            />
            <Typography.Paragraph type="secondary" style={{ margin: '6px 0 8px', fontSize: 13 }}>
              {t('templates.importer.pasteHelp', { csvColumns })}
            </Typography.Paragraph>
            <Checkbox checked={pasteApproved} onChange={(e) => setPasteApproved(e.target.checked)} style={{ marginBottom: 12 }} data-testid="paste-approved">
              {t('templates.importer.pasteApproved')}
            </Checkbox>
          </>
        ) : file ? (
          <Space style={{ marginBottom: 12 }} wrap>
            <FileTextOutlined aria-hidden />
            <Typography.Text strong data-testid="import-file-name">
              {file.name}
            </Typography.Text>
            {file.parsed.ok ? <Tag>{t(`templates.importer.format.${file.parsed.format}`)}</Tag> : null}
            {file.parsed.encoding === 'gb18030' ? <Typography.Text type="secondary">{t('templates.importer.encoding')}</Typography.Text> : null}
            <Button size="small" icon={<SwapOutlined />} onClick={() => (setFile(null), setFailures(null))}>
              {t('templates.importer.chooseAnother')}
            </Button>
          </Space>
        ) : (
          <>
            <Upload.Dragger
              accept=".json,.csv,.tsv,.txt,application/json,text/csv"
              multiple={false}
              showUploadList={false}
              disabled={reading}
              beforeUpload={(f) => {
                void readFile(f);
                return Upload.LIST_IGNORE;
              }}
              data-testid="import-drop"
            >
              <p className="ant-upload-drag-icon">
                <InboxOutlined aria-hidden />
              </p>
              <p className="ant-upload-text">{t('templates.importer.drop')}</p>
              <p className="ant-upload-hint">{t('templates.importer.dropHint')}</p>
            </Upload.Dragger>
            <Typography.Paragraph type="secondary" style={{ marginTop: 12, marginBottom: 0, fontSize: 13 }}>
              {t('templates.importer.formats', { csvColumns })}
            </Typography.Paragraph>
          </>
        )}

        {parsed && !parsed.ok ? (
          <Alert
            type="error"
            showIcon
            role="alert"
            title={t('templates.importer.fileProblemTitle')}
            description={t(`templates.fileProblem.${parsed.problem.code}`, parsed.problem.vars ?? {})}
            data-testid="import-file-problem"
          />
        ) : null}

        {failures ? (
          <Alert
            type="error"
            showIcon
            role="alert"
            title={t('templates.importer.failedTitle', { saved: failures.saved, count: failures.list.length })}
            description={
              <ul className="tpl-report-list">
                {failures.list.map((f) => (
                  <li key={`${f.where.kind}-${f.where.n}`}>{t('templates.importer.failedRow', { where: whereText(t, f.where), reason: f.reason })}</li>
                ))}
              </ul>
            }
            style={{ marginBottom: 12 }}
            data-testid="import-failures"
          />
        ) : null}

        {report}
      </div>
    </Modal>
  );
}
