// Adding or editing a template: its name, its text (with a button that inserts 【变量】 at the
// cursor, and a live count of characters and units), an optional label per marker, and whether the
// provider has approved it, with how approval works said next to the box.
import { useEffect, useMemo, useRef, useState } from 'react';
import { Alert, Button, Checkbox, Drawer, Form, Input, Space, Typography } from 'antd';
import type { FormRule } from 'antd';
import type { TextAreaRef } from 'antd/es/input/TextArea';
import { PlusOutlined } from '@ant-design/icons';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import type { TemplateView } from '../../../../common/contract';
import { describeError, type IpcError } from '../../app/api';
import { useSaveTemplate } from './use-templates';
import { MarkedContent } from './MarkedContent';
import {
  cleanLabels,
  CONTENT_MAX,
  contentProblem,
  derivedName,
  LABEL_MAX,
  labelProblem,
  MARKER,
  NAME_MAX,
  nameProblem,
  sameText,
  templateFacts,
  unsavedChanges,
  type Problem,
} from './template-rules';
import { useFeedback } from '../../app/feedback';

export interface TemplateFormValues {
  name: string;
  content: string;
  approved: boolean;
  labels: string[];
}

export interface TemplateFormDrawerProps {
  open: boolean;
  /** The template to edit; null to add one. */
  template: TemplateView | null;
  /** The library, to point out a template with the same text. */
  existing: readonly TemplateView[];
  onClose: () => void;
  onSaved: (template: TemplateView, created: boolean) => void;
}

function valuesOf(template: TemplateView | null): TemplateFormValues {
  return { name: template?.name ?? '', content: template?.content ?? '', approved: template?.approved ?? false, labels: [...(template?.markerNames ?? [])] };
}

/** A form rule from one of the template rules: its problem, in words, is the field's error. */
function problemRule(t: TFunction, check: (value: string) => Problem | null): FormRule {
  return {
    validator: async (_rule, value: unknown) => {
      const problem = check(typeof value === 'string' ? value : '');
      if (problem) throw new Error(t(`templates.problem.${problem.code}`, problem.vars ?? {}));
    },
  };
}

export function TemplateFormDrawer({ open, template, existing, onClose, onSaved }: TemplateFormDrawerProps) {
  const { t, i18n } = useTranslation();
  const { message, modal } = useFeedback();
  const [form] = Form.useForm<TemplateFormValues>();
  const saving = useSaveTemplate();
  const [formError, setFormError] = useState<IpcError | null>(null);
  const textArea = useRef<TextAreaRef>(null);
  const content = (Form.useWatch('content', form) as string | undefined) ?? '';
  const labels = (Form.useWatch('labels', form) as string[] | undefined) ?? [];
  const approved = (Form.useWatch('approved', form) as boolean | undefined) ?? false;

  const rules = useMemo(
    () => ({
      name: [problemRule(t, nameProblem)],
      content: [problemRule(t, (v) => contentProblem(v.trim()))],
      label: [problemRule(t, labelProblem)],
    }),
    [t],
  );

  useEffect(() => {
    if (!open) return;
    setFormError(null);
    form.resetFields();
    form.setFieldsValue(valuesOf(template));
  }, [open, template, form]);

  // Errors already on screen follow a language switch.
  useEffect(() => {
    const withErrors = form
      .getFieldsError()
      .filter((f) => f.errors.length > 0)
      .map((f) => f.name);
    if (withErrors.length) form.validateFields(withErrors).catch(() => undefined);
  }, [i18n.language, form]);

  const facts = templateFacts(content.trim());
  const duplicate = content.trim() ? existing.find((x) => x.id !== template?.id && sameText(x.content) === sameText(content)) : undefined;
  const changedWhileApproved = Boolean(template?.approved && approved && content.trim() && sameText(content) !== sameText(template.content));

  const insertMarker = () => {
    const el = textArea.current?.resizableTextArea?.textArea;
    const current = (form.getFieldValue('content') as string | undefined) ?? '';
    const start = el ? el.selectionStart : current.length;
    const end = el ? el.selectionEnd : current.length;
    const next = current.slice(0, start) + MARKER + current.slice(end);
    form.setFieldValue('content', next);
    if (form.getFieldError('content').length) form.validateFields(['content']).catch(() => undefined);
    const caret = start + MARKER.length;
    requestAnimationFrame(() => {
      el?.focus();
      el?.setSelectionRange(caret, caret);
    });
  };

  const save = (values: TemplateFormValues) => {
    setFormError(null);
    const text = values.content.trim();
    const markerNames = cleanLabels(values.labels ?? [], templateFacts(text).markerCount);
    saving.mutate(
      { ...(template ? { id: template.id } : {}), name: values.name.trim() || derivedName(text), content: text, approved: values.approved, markerNames },
      {
        onSuccess: (saved) => {
          void message.success(template ? t('templates.saved', { name: saved.name }) : t('templates.added', { name: saved.name }));
          onSaved(saved, !template);
        },
        onError: (error) => {
          if (error.issues?.some((i) => i.path === 'content')) {
            form.setFields([{ name: 'content', errors: [t('templates.problem.empty', { max: CONTENT_MAX })] }]);
            form.focusField('content');
          } else setFormError(error);
        },
      },
    );
  };

  const markerCount = facts.markerCount;
  const tooLong = facts.length > CONTENT_MAX;

  // Escape, the close button and Cancel: a half-typed template is not discarded without asking.
  const requestClose = () => {
    if (!unsavedChanges(valuesOf(template), form.getFieldsValue(true) as Partial<TemplateFormValues>)) {
      onClose();
      return;
    }
    modal.confirm({
      title: t('templates.form.discardTitle'),
      content: <span data-testid="template-discard-body">{t('templates.form.discardBody')}</span>,
      okText: t('templates.form.discard'),
      cancelText: t('templates.form.keepEditing'),
      okButtonProps: { danger: true, 'data-testid': 'template-discard' },
      cancelButtonProps: { 'data-testid': 'template-keep-editing' },
      onOk: onClose,
    });
  };

  return (
    <Drawer
      open={open}
      onClose={requestClose}
      size={620}
      title={template ? t('templates.form.editTitle', { name: template.name }) : t('templates.form.addTitle')}
      footer={
        <Space style={{ display: 'flex', justifyContent: 'flex-end' }}>
          <Button onClick={requestClose}>{t('common.cancel')}</Button>
          <Button type="primary" loading={saving.isPending} onClick={() => form.submit()} data-testid="template-save">
            {t('common.save')}
          </Button>
        </Space>
      }
    >
      {formError ? (
        <Alert
          type="error"
          showIcon
          title={t('templates.form.saveFailed')}
          description={describeError(t, formError)}
          style={{ marginBottom: 16 }}
          data-testid="template-form-error"
        />
      ) : null}
      <Form<TemplateFormValues>
        form={form}
        name="template"
        className="callout-form"
        layout="vertical"
        validateTrigger="onBlur"
        onValuesChange={(changed: Partial<TemplateFormValues>) => {
          // Once a field shows a problem, check it again as the user types so it clears when fixed.
          const names: (string | number)[][] = [];
          for (const key of Object.keys(changed) as (keyof TemplateFormValues)[]) {
            if (key === 'labels') {
              labels.forEach((_l, i) => form.getFieldError(['labels', i]).length && names.push(['labels', i]));
            } else if (form.getFieldError(key).length) names.push([key]);
          }
          if (names.length) form.validateFields(names).catch(() => undefined);
        }}
        scrollToFirstError={{ block: 'center', focus: true }}
        onFinish={(values) => void save(values)}
        initialValues={valuesOf(template)}
      >
        <Form.Item name="name" label={t('templates.form.name')} rules={rules.name} extra={t('templates.form.nameHelp')}>
          <Input maxLength={NAME_MAX} showCount placeholder={t('templates.form.namePlaceholder')} autoComplete="off" autoFocus />
        </Form.Item>

        <Form.Item label={t('templates.form.content')} required style={{ marginBottom: 0 }} htmlFor="template_content">
          <div style={{ display: 'flex', justifyContent: 'space-between', alignItems: 'center', gap: 8, marginBottom: 8 }}>
            <Typography.Text type="secondary" style={{ fontSize: 13 }}>
              {t('templates.form.contentHelp', { marker: MARKER })}
            </Typography.Text>
            <Button size="small" icon={<PlusOutlined />} onClick={insertMarker} data-testid="insert-marker">
              {t('templates.form.insertMarker', { marker: MARKER })}
            </Button>
          </div>
          <Form.Item
            name="content"
            rules={rules.content}
            style={{ marginBottom: 16 }}
            extra={
              <span data-testid="template-counter" style={{ color: tooLong ? 'var(--ant-color-error, #ff4d4f)' : undefined }}>
                {t('templates.form.counter', { length: facts.length, max: CONTENT_MAX, units: t('templates.units', { count: facts.units }) })}
                {markerCount ? ` · ${t('templates.markers', { count: markerCount })}` : ''}
              </span>
            }
          >
            <Input.TextArea ref={textArea} autoSize={{ minRows: 4, maxRows: 10 }} placeholder={t('templates.form.contentPlaceholder')} spellCheck={false} />
          </Form.Item>
        </Form.Item>

        {duplicate ? (
          <Alert
            type="warning"
            showIcon
            title={t('templates.form.duplicate', { name: duplicate.name })}
            style={{ marginBottom: 16 }}
            data-testid="template-duplicate"
          />
        ) : null}

        <Form.Item label={t('templates.form.labels')} extra={markerCount ? t('templates.form.labelsHelp') : undefined} style={{ marginBottom: 16 }}>
          {markerCount ? (
            <div className="tpl-labels">
              {Array.from({ length: markerCount }, (_v, i) => (
                <Form.Item key={i} name={['labels', i]} label={t('templates.form.labelFor', { n: i + 1 })} rules={rules.label} style={{ marginBottom: 8 }}>
                  <Input maxLength={LABEL_MAX} placeholder={t('templates.form.labelPlaceholder')} autoComplete="off" />
                </Form.Item>
              ))}
            </div>
          ) : (
            <Typography.Text type="secondary">{t('templates.form.noLabels', { marker: MARKER })}</Typography.Text>
          )}
        </Form.Item>

        {content.trim() ? (
          <Form.Item label={t('templates.form.preview')} style={{ marginBottom: 16 }}>
            <div className="tpl-preview" data-testid="template-preview">
              <MarkedContent content={content.trim()} labels={labels} />
            </div>
          </Form.Item>
        ) : null}

        <Form.Item name="approved" valuePropName="checked" style={{ marginBottom: 8 }}>
          <Checkbox data-testid="template-approved">{t('templates.form.approved')}</Checkbox>
        </Form.Item>
        {changedWhileApproved ? (
          <Alert type="warning" showIcon title={t('templates.form.changedWhileApproved')} style={{ marginBottom: 8 }} data-testid="template-changed-approved" />
        ) : null}
        <Alert
          type="info"
          showIcon
          title={t('templates.approval.title')}
          description={t('templates.approval.body', { path: t('templates.approval.path') })}
          data-testid="template-approval-help"
        />
        {/* Enter in a one-line field submits. */}
        <button type="submit" hidden aria-hidden tabIndex={-1} />
      </Form>
    </Drawer>
  );
}
