// A template's text with each 【变量】 marker shown as a chip: its label when it has one, else
// "Variable n". The chip's tooltip names the marker as written, so nothing is hidden.
import { Fragment } from 'react';
import { Tag, Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';
import { MARKER, parseTemplate } from '../../../../common/domain/templates';
import { markerLabel } from './template-rules';

export interface MarkedContentProps {
  content: string;
  labels?: readonly string[];
  /** Clamp to three lines (in the list). */
  clamp?: boolean;
}

export function MarkedContent({ content, labels, clamp = false }: MarkedContentProps) {
  const { t } = useTranslation();
  const { literals } = parseTemplate(content);
  return (
    <span className={clamp ? 'tpl-content tpl-clamp' : 'tpl-content'} data-testid="marked-content">
      {literals.map((literal, i) => (
        <Fragment key={i}>
          {literal}
          {i < literals.length - 1 ? (
            <MarkerChip index={i} label={markerLabel(labels, i)} title={t('templates.markerTitle', { marker: MARKER, n: i + 1 })} />
          ) : null}
        </Fragment>
      ))}
    </span>
  );
}

function MarkerChip({ index, label, title }: { index: number; label: string | null; title: string }) {
  const { t } = useTranslation();
  const text = label ?? t('templates.marker', { n: index + 1 });
  return (
    <Tooltip title={label ? t('common.labelled', { label: title, value: label }) : title}>
      <Tag
        color="blue"
        className="tpl-marker"
        data-testid="marker-chip"
        data-marker-index={index}
        aria-label={label ? t('common.labelled', { label: title, value: label }) : title}
      >
        {text}
      </Tag>
    </Tooltip>
  );
}
