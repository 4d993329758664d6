// Step 2: which column holds the mobile number and which fills each marker. The file's first rows
// are shown as a table whose header says, per column, what it fills (Callout's suggestion is
// preselected); below, the first texts exactly as they would be read out.
import { createContext, useContext, type HTMLAttributes } from 'react';
import { Alert, Button, Flex, Select, Table, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { TemplateView } from '../../../../common/contract';
import type { ImportView } from '../../../../common/bulk-types';
import { HearItButton } from '../../app/HearItButton';
import { assignTarget, markerLabel, missingTargets, targetFromKey, targetKey, targetsFromSpec, type ColumnTargets } from './bulk-model';

export interface MappingStepProps {
  view: ImportView;
  template: TemplateView;
  targets: ColumnTargets;
  busy: boolean;
  canContinue: boolean;
  onChange: (next: ColumnTargets) => void;
  onBack: () => void;
  onNext: () => void;
}

export function MappingStep({ view, template, targets, busy, canContinue, onChange, onBack, onNext }: MappingStepProps) {
  const { t } = useTranslation();
  const suggested = targetsFromSpec(view.columns, template, view.suggested);
  const missing = missingTargets(targets, template.markerCount);
  const options = [
    { value: 'none', label: t('bulk.mapping.none') },
    { value: 'mobile', label: t('bulk.mapping.mobile') },
    ...Array.from({ length: template.markerCount }, (_, i) => ({ value: `marker:${i}`, label: markerLabel(t, template, i) })),
  ];
  const isSuggested = (column: string) => targetKey(suggested[column] ?? { kind: 'none' }) === targetKey(targets[column] ?? { kind: 'none' });
  const allSuggested = view.columns.every(isSuggested);

  const columns = view.columns.map((column, index) => {
    const target = targets[column] ?? { kind: 'none' };
    return {
      key: column,
      dataIndex: index,
      width: 200,
      // The column's name only: antd also renders titles in a hidden row that measures widths, so the
      // choice of what the column fills lives in the header cell itself (MappingHeaderCell).
      title: column,
      onHeaderCell: () => ({ 'data-column': column }) as HTMLAttributes<HTMLElement>,
      render: (value: string | undefined) => (
        <Typography.Text ellipsis={{ tooltip: value }} type={target.kind === 'none' ? 'secondary' : undefined}>
          {value ?? ''}
        </Typography.Text>
      ),
    };
  });

  const sample = view.sample.map((row, i) => ({ key: i, ...Object.fromEntries(row.map((v, c) => [c, v])) }));

  return (
    <div data-testid="mapping-step">
      <Typography.Paragraph>
        {t('bulk.mapping.intro', { name: view.fileName, rows: view.report.totals.rows, columns: view.columns.length })}{' '}
        {allSuggested ? <Tag color="blue">{t('bulk.mapping.suggestedTag')}</Tag> : null}
      </Typography.Paragraph>
      <Typography.Paragraph type="secondary" className="bulk-template-line">
        {t('bulk.mapping.template', { name: template.name })} <span className="bulk-template-text">{template.content}</span>
      </Typography.Paragraph>

      <Typography.Title level={5} id="mapping-sample-title">
        {t('bulk.mapping.sampleTitle', { count: view.sample.length })}
      </Typography.Title>
      <MappingContext.Provider value={{ targets, options, onChange }}>
        <Table
          aria-labelledby="mapping-sample-title"
          size="small"
          bordered
          columns={columns}
          dataSource={sample}
          pagination={false}
          scroll={{ x: 'max-content' }}
          tableLayout="fixed"
          components={HEADER_COMPONENTS}
          data-testid="mapping-sample"
        />
      </MappingContext.Provider>

      {missing.mobile || missing.markers.length ? (
        <Alert
          type="warning"
          showIcon
          style={{ marginTop: 12 }}
          data-testid="mapping-missing"
          title={t('bulk.mapping.incomplete')}
          description={[
            ...(missing.mobile ? [t('issue.mapping-mobile', { ns: 'msg' })] : []),
            ...missing.markers.map((i) => t('bulk.mapping.missingMarker', { label: markerLabel(t, template, i) })),
          ].join(' ')}
        />
      ) : null}

      <Typography.Title level={5} id="mapping-preview-title" style={{ marginTop: 20 }}>
        {t('bulk.mapping.previewTitle')}
      </Typography.Title>
      {view.report.preview.length ? (
        <ol className="bulk-preview" aria-labelledby="mapping-preview-title" data-testid="mapping-preview" aria-busy={busy}>
          {view.report.preview.map((p) => (
            <li key={p.row} data-testid="preview-row" data-row={p.row}>
              <Typography.Text type="secondary" className="bulk-preview-meta">
                {t('bulk.mapping.previewMeta', { row: p.row, mobile: p.mobile, length: p.length, count: p.units })}
              </Typography.Text>
              <span className="bulk-preview-text">{p.content}</span> <HearItButton text={p.content} size="small" iconOnly data-testid="preview-hear" />
            </li>
          ))}
        </ol>
      ) : (
        <Typography.Text type="secondary">{t('bulk.mapping.noPreview')}</Typography.Text>
      )}

      <Flex justify="space-between" style={{ marginTop: 20 }}>
        <Button onClick={onBack}>{t('bulk.back')}</Button>
        <Flex gap={8}>
          {!allSuggested ? <Button onClick={() => onChange(suggested)}>{t('bulk.mapping.resetSuggested')}</Button> : null}
          <Button type="primary" onClick={onNext} disabled={!canContinue} loading={busy} data-testid="mapping-next">
            {t('bulk.mapping.next')}
          </Button>
        </Flex>
      </Flex>
    </div>
  );
}

interface MappingContextValue {
  targets: ColumnTargets;
  options: { value: string; label: string }[];
  onChange: (next: ColumnTargets) => void;
}

const MappingContext = createContext<MappingContextValue>({ targets: {}, options: [], onChange: () => undefined });

/** A header cell that also says what its column fills (a select), for the columns of the file. */
function MappingHeaderCell(props: HTMLAttributes<HTMLTableCellElement> & { 'data-column'?: string }) {
  const { t } = useTranslation();
  const { targets, options, onChange } = useContext(MappingContext);
  const { 'data-column': column, children, ...rest } = props;
  if (column === undefined) return <th {...rest}>{children}</th>;
  const target = targets[column] ?? { kind: 'none' };
  return (
    <th {...rest}>
      <Flex vertical gap={6} data-testid="mapping-column" data-column={column} data-target={targetKey(target)}>
        <Typography.Text strong ellipsis title={column}>
          {children}
        </Typography.Text>
        <Select
          size="small"
          value={targetKey(target)}
          aria-label={t('bulk.mapping.selectLabel', { column })}
          options={options}
          onChange={(key: string) => onChange(assignTarget(targets, column, targetFromKey(key)))}
          popupMatchSelectWidth={false}
          className={target.kind === 'none' ? 'bulk-target-none' : 'bulk-target-set'}
        />
      </Flex>
    </th>
  );
}

const HEADER_COMPONENTS = { header: { cell: MappingHeaderCell } };
