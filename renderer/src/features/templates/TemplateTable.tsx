import type { HTMLAttributes, ReactNode } from 'react';
import { Button, Table, Tag, Tooltip, Typography } from 'antd';
import type { TableColumnsType } from 'antd';
import { CheckCircleFilled, ClockCircleOutlined, DeleteOutlined, EditOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { TemplateView } from '../../../../common/contract';
import { MarkedContent } from './MarkedContent';
import { CONTENT_MAX, MARKER, templateFacts } from './template-rules';

export function StatusTag({ approved }: { approved: boolean }) {
  const { t } = useTranslation();
  const help = approved ? t('templates.statusHelp.approved') : t('templates.statusHelp.pending', { path: t('templates.approval.path') });
  return (
    <Tooltip title={help}>
      {approved ? (
        <Tag color="success" icon={<CheckCircleFilled />} data-testid="template-status" data-approved="true">
          {t('templates.status.approved')}
        </Tag>
      ) : (
        <Tag color="warning" icon={<ClockCircleOutlined />} data-testid="template-status" data-approved="false">
          {t('templates.status.pending')}
        </Tag>
      )}
    </Tooltip>
  );
}

/** "2 variables" and "26 chars · 1 unit", as the list and the import preview show them. */
export function TemplateSize({ content }: { content: string }) {
  const { t } = useTranslation();
  const facts = templateFacts(content);
  return (
    <Tooltip title={t('templates.lengthHelp', { marker: MARKER })}>
      <span data-testid="template-size" data-length={facts.length} data-units={facts.units} data-markers={facts.markerCount}>
        <span style={{ display: 'block' }}>{facts.markerCount ? t('templates.markers', { count: facts.markerCount }) : t('templates.noMarkers')}</span>
        <Typography.Text type={facts.length > CONTENT_MAX ? 'danger' : 'secondary'} style={{ fontSize: 12 }}>
          {t('templates.length', { length: facts.length, units: t('templates.units', { count: facts.units }) })}
        </Typography.Text>
      </span>
    </Tooltip>
  );
}

export interface TemplateTableProps {
  templates: TemplateView[];
  loading: boolean;
  empty: ReactNode;
  onEdit: (t: TemplateView) => void;
  onDelete: (t: TemplateView) => void;
}

export function TemplateTable({ templates, loading, empty, onEdit, onDelete }: TemplateTableProps) {
  const { t } = useTranslation();
  const columns: TableColumnsType<TemplateView> = [
    {
      key: 'name',
      title: t('templates.column.name'),
      dataIndex: 'name',
      width: 170,
      render: (name: string) => (
        <Typography.Text strong data-testid="template-name" style={{ wordBreak: 'break-word' }}>
          {name}
        </Typography.Text>
      ),
    },
    {
      key: 'content',
      title: t('templates.column.content'),
      dataIndex: 'content',
      render: (_: unknown, tpl) => <MarkedContent content={tpl.content} labels={tpl.markerNames} clamp />,
    },
    {
      key: 'size',
      title: t('templates.column.size'),
      width: 150,
      render: (_: unknown, tpl) => <TemplateSize content={tpl.content} />,
    },
    {
      key: 'status',
      title: t('templates.column.status'),
      dataIndex: 'approved',
      width: 120,
      render: (approved: boolean) => <StatusTag approved={approved} />,
    },
    {
      key: 'actions',
      title: t('templates.column.actions'),
      width: 160,
      render: (_: unknown, tpl) => (
        <span className="tpl-actions">
          <Button size="small" type="link" icon={<EditOutlined />} aria-label={t('templates.actionLabel.edit', { name: tpl.name })} onClick={() => onEdit(tpl)}>
            {t('templates.action.edit')}
          </Button>
          <Button
            size="small"
            type="link"
            danger
            icon={<DeleteOutlined />}
            aria-label={t('templates.actionLabel.delete', { name: tpl.name })}
            onClick={() => onDelete(tpl)}
          >
            {t('templates.action.delete')}
          </Button>
        </span>
      ),
    },
  ];

  return (
    <Table<TemplateView>
      aria-label={t('templates.tableLabel')}
      rowKey="id"
      size="middle"
      columns={columns}
      dataSource={templates}
      loading={loading}
      tableLayout="fixed"
      pagination={{ pageSize: 20, hideOnSinglePage: true, showSizeChanger: false }}
      onRow={(tpl) => ({ 'data-template-id': tpl.id, 'data-testid': 'template-row' }) as HTMLAttributes<HTMLElement>}
      locale={{ emptyText: empty }}
    />
  );
}
