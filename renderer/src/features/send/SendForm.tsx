// The send form: profile, approved template and one field per 【变量】 marker (or free text that is
// checked against the approved templates as it is typed), the exact text with its length and units,
// and the mobile number, normalised as it is typed. Submitting (button or Enter) only checks the
// form and asks the screen to show the confirmation; nothing is sent from here.
import { useEffect, useMemo, useState, type ReactNode } from 'react';
import { Alert, AutoComplete, Button, Col, Form, Row, Segmented, Select, Space, Tag, type FormInstance } from 'antd';
// antd's Input and TextArea themselves: its Input export brings Search, Password, OTP and Group along
// (about 12 KB of the first screen that this form does not use).
import Input from 'antd/es/input/Input';
import TextArea from 'antd/es/input/TextArea';
import { CheckCircleFilled, ExclamationCircleFilled, HistoryOutlined, PhoneOutlined, WarningFilled } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { keyStanding, keyStatusWord } from '../profiles/key-standing';
import type { LastSendView, TemplateView } from '../../../../common/contract';
import type { Language } from '../../i18n';
import { normalizeMobile } from '../../../../common/domain/mobile';
import { matchTemplate } from '../../../../common/domain/templates';
import { CHARS_PER_UNIT, CONTENT_MAX, checkContent, textLength } from '../../../../common/domain/units';
import { firstValueOf, formatWhen } from './last-send';
import { composeText, markerLabel, matchFreeText, measure, previewParts, type FreeTextMatch, type PreviewPart } from './send-model';
import type { SendFormValues, SendRequest } from './send-request';
import type { SendData } from './use-send-data';
import { Panel } from '../../app/Panel';
import { Text } from '../../app/Text';
import { HearItButton } from '../../app/HearItButton';

export interface SendFormProps {
  form: FormInstance<SendFormValues>;
  data: SendData;
  /** The profile chosen at first: the last used, else the Sandbox. */
  initialProfileId: string | undefined;
  sending: boolean;
  onReview: (request: SendRequest) => void;
  /** A problem with the last send attempt, shown next to the button. */
  problem: ReactNode;
}

/** The digits of what was typed, for matching suggestions. */
const digitsOf = (s: string) => s.replace(/\D/g, '');

export function SendForm({ form, data, initialProfileId, sending, onReview, problem }: SendFormProps) {
  const { t, i18n } = useTranslation();
  const { profiles, templates, recents } = data;
  // The suggestions list is opened only by the user (typing, clicking) and closes when the field
  // loses focus, so that it never pops up over the button after the number was cleared by a send.
  const [suggesting, setSuggesting] = useState(false);

  const mode = Form.useWatch('mode', form) ?? 'template';
  const profileId = Form.useWatch('profileId', form);
  const templateId = Form.useWatch('templateId', form);
  const values = Form.useWatch('values', form) as (string | undefined)[] | undefined;
  const freeText = (Form.useWatch('freeText', form) as string | undefined) ?? '';
  const mobileInput = (Form.useWatch('mobile', form) as string | undefined) ?? '';

  const profile = profiles.find((p) => p.id === profileId) ?? null;
  const template = templates.find((tpl) => tpl.id === templateId) ?? null;
  const approved = templates.filter((tpl) => tpl.approved);

  const text = mode === 'free' ? freeText : template ? composeText(template.content, values ?? []) : '';
  const size = measure(text);
  const freeMatch = useMemo<FreeTextMatch | null>(() => (mode === 'free' ? matchFreeText(freeText, templates) : null), [mode, freeText, templates]);
  const mobile = normalizeMobile(mobileInput);

  // Errors already on screen follow a language switch.
  useEffect(() => {
    const withErrors = form
      .getFieldsError()
      .filter((f) => f.errors.length > 0)
      .map((f) => f.name);
    if (withErrors.length) form.validateFields(withErrors).catch(() => undefined);
  }, [i18n.language, form]);

  // The send whose values were put in the fields by "Use the values of the last send", if any.
  const [reused, setReused] = useState<LastSendView | null>(null);
  const lastSend = template && template.markerCount > 0 ? (recents.lastSends[template.id] ?? null) : null;

  const chooseTemplate = (id: string) => {
    const next = templates.find((tpl) => tpl.id === id);
    // A new send starts empty: values of another person's send are put in only when asked for.
    form.setFieldsValue({ values: Array.from({ length: next?.markerCount ?? 0 }, () => '') });
    form.setFields(Array.from({ length: next?.markerCount ?? 0 }, (_, i) => ({ name: ['values', i], errors: [] })));
    setReused(null);
  };

  const reuseLastSend = () => {
    if (!template || !lastSend) return;
    form.setFieldsValue({ values: Array.from({ length: template.markerCount }, (_, i) => lastSend.values[i] ?? '') });
    form.setFields(Array.from({ length: template.markerCount }, (_, i) => ({ name: ['values', i], errors: [] })));
    setReused(lastSend);
  };
  const lastSendArgs = (last: LastSendView) => ({
    mobile: last.mobile,
    first: firstValueOf(last.values),
    time: formatWhen(i18n.language as Language, last.at, Date.now()),
  });

  const switchMode = (next: 'template' | 'free') => {
    // Free text starts from the text composed so far, so a user can adjust it.
    if (next === 'free' && !form.getFieldValue('freeText') && text) form.setFieldValue('freeText', text);
    form.setFieldValue('mode', next);
  };

  const finish = () => {
    if (!profile || !mobile.ok) return;
    if (mode === 'template' && (!template || !template.approved)) return;
    const check = checkContent(text);
    if (!check.ok) return;
    const matched = mode === 'free' ? (freeMatch?.kind === 'approved' ? freeMatch.template : null) : template;
    onReview({ profile, mobile: mobile.mobile, content: text, length: check.length, units: check.units, template: matched, freeMatch });
  };

  const mobileOptions = useMemo(() => {
    const typed = digitsOf(mobileInput);
    return recents.mobiles
      .filter((m) => typed === '' || m.includes(typed) || (mobile.ok && m === mobile.mobile))
      .filter((m) => m !== mobileInput)
      .map((m) => ({ value: m, label: <span data-testid="mobile-suggestion">{m}</span> }));
  }, [recents.mobiles, mobileInput, mobile]);

  const templateOptions = [
    {
      label: <span>{t('send.field.approvedGroup')}</span>,
      title: t('send.field.approvedGroup'),
      options: approved.map((tpl) => ({ value: tpl.id, label: <TemplateOption template={tpl} />, search: `${tpl.name} ${tpl.content}` })),
    },
    ...(templates.some((tpl) => !tpl.approved)
      ? [
          {
            label: <span>{t('templates.pendingGroup', { ns: 'msg' })}</span>,
            title: t('templates.pendingGroup', { ns: 'msg' }),
            options: templates
              .filter((tpl) => !tpl.approved)
              .map((tpl) => ({ value: tpl.id, label: <TemplateOption template={tpl} />, search: `${tpl.name} ${tpl.content}` })),
          },
        ]
      : []),
  ];

  return (
    <Panel
      title={t('send.form.title')}
      extra={
        <Segmented<'template' | 'free'>
          aria-label={t('send.mode.label')}
          value={mode}
          onChange={switchMode}
          options={[
            { value: 'template', label: t('send.mode.template') },
            { value: 'free', label: t('send.mode.free') },
          ]}
          data-testid="send-mode"
        />
      }
      data-testid="send-form-card"
    >
      <Form<SendFormValues>
        form={form}
        name="send"
        layout="vertical"
        className="callout-form send-form"
        requiredMark={false}
        validateTrigger="onBlur"
        initialValues={{ mode: 'template', values: [], profileId: initialProfileId }}
        onValuesChange={(changed: Partial<SendFormValues>) => {
          // Once a field shows a problem, check it again as the user types so that it clears when fixed.
          const names: (string | number)[][] = [];
          for (const key of Object.keys(changed) as (keyof SendFormValues)[]) {
            if (key === 'values') {
              (changed.values ?? []).forEach((_, i) => {
                if (form.getFieldError(['values', i]).length) names.push(['values', i]);
              });
            } else if (form.getFieldError(key).length) names.push([key]);
          }
          if (names.length) form.validateFields(names).catch(() => undefined);
        }}
        scrollToFirstError={{ block: 'center', focus: true }}
        onFinish={finish}
      >
        <Form.Item name="mode" hidden>
          <Input />
        </Form.Item>
        <Row gutter={16}>
          <Col span={9}>
            <Form.Item
              name="profileId"
              label={t('send.field.profile')}
              rules={[
                {
                  validator: (_, id: string | undefined) => {
                    const p = profiles.find((x) => x.id === id);
                    if (!p) return Promise.reject(new Error(t('send.errors.profileRequired')));
                    if (!p.hasKey) return Promise.reject(new Error(t('send.errors.profileNoKey', { name: p.name })));
                    return Promise.resolve();
                  },
                },
              ]}
              validateTrigger="onChange"
            >
              <Select
                data-testid="profile-select"
                options={profiles.map((p) => ({
                  value: p.id,
                  label: (
                    <span className="send-option">
                      <span className="send-option-name">{p.name}</span>
                      {p.builtin ? <Tag color="blue">{t('send.field.builtin')}</Tag> : null}
                      {p.hasKey ? null : <Tag color="warning">{t('send.field.noKey')}</Tag>}
                      {keyStanding(p) === 'rejected' ? <Tag color="error">{t(`profiles.keyStatus.${keyStatusWord(p)}`)}</Tag> : null}
                    </span>
                  ),
                }))}
              />
            </Form.Item>
          </Col>
          <Col span={15}>
            {mode === 'template' ? (
              <Form.Item
                name="templateId"
                label={t('send.field.template')}
                validateTrigger="onChange"
                rules={[
                  {
                    validator: (_, id: string | undefined) => {
                      const tpl = templates.find((x) => x.id === id);
                      if (!tpl) return Promise.reject(new Error(t('send.errors.templateRequired')));
                      if (!tpl.approved) return Promise.reject(new Error(t('send.errors.templatePending')));
                      return Promise.resolve();
                    },
                  },
                ]}
                extra={template ? undefined : t('send.field.templateHelp')}
              >
                <Select
                  data-testid="template-select"
                  placeholder={t('templates.choose', { ns: 'msg' })}
                  options={templateOptions}
                  onChange={chooseTemplate}
                  showSearch={{
                    filterOption: (input, option) =>
                      String((option as { search?: string } | undefined)?.search ?? '')
                        .toLowerCase()
                        .includes(input.toLowerCase()),
                  }}
                  notFoundContent={t('templates.noneMatches', { ns: 'msg' })}
                />
              </Form.Item>
            ) : (
              <Form.Item label={t('send.field.freeTextRule')}>
                <Text type="secondary">{t('send.field.freeTextHelp')}</Text>
              </Form.Item>
            )}
          </Col>
        </Row>

        {mode === 'template' && template && template.markerCount > 0 ? (
          <fieldset className="send-values" aria-label={t('send.field.valuesLegend')}>
            <Row gutter={16}>
              {Array.from({ length: template.markerCount }, (_, i) => {
                const label = markerLabel(t, template, i);
                return (
                  <Col span={template.markerCount === 1 ? 24 : 12} key={`${template.id}-${i}`}>
                    <Form.Item
                      name={['values', i]}
                      label={label}
                      rules={[
                        {
                          validator: (_, v: string | undefined) =>
                            (v ?? '').trim() === '' ? Promise.reject(new Error(t('send.errors.valueRequired', { label }))) : Promise.resolve(),
                        },
                      ]}
                    >
                      <Input autoComplete="off" data-testid={`value-${i}`} disabled={!template.approved} />
                    </Form.Item>
                  </Col>
                );
              })}
            </Row>
            {lastSend && template.approved ? (
              reused && reused.mobile === lastSend.mobile && reused.at === lastSend.at ? (
                <Text type="secondary" className="send-reused" data-testid="values-reused" role="status">
                  <HistoryOutlined aria-hidden /> {t('send.field.reused', lastSendArgs(lastSend))}
                </Text>
              ) : (
                <Button
                  type="link"
                  size="small"
                  className="send-reuse"
                  icon={<HistoryOutlined />}
                  onClick={reuseLastSend}
                  data-testid="reuse-last-send"
                  title={lastSend.values.join(' · ')}
                >
                  {t('send.field.reuse', lastSendArgs(lastSend))}
                </Button>
              )
            ) : null}
          </fieldset>
        ) : null}

        {mode === 'free' ? (
          <Form.Item
            name="freeText"
            label={t('send.field.freeText')}
            rules={[
              {
                validator: (_, v: string | undefined) => {
                  const check = checkContent(v ?? '');
                  return check.ok ? Promise.resolve() : Promise.reject(new Error(t(`content.${check.error}`, { ns: 'msg' })));
                },
              },
            ]}
          >
            <TextArea
              autoSize={{ minRows: 3, maxRows: 8 }}
              placeholder={t('send.field.freeTextPlaceholder')}
              count={{ show: true, max: CONTENT_MAX, strategy: textLength }}
              data-testid="free-text"
            />
          </Form.Item>
        ) : null}

        {mode === 'free' && freeMatch ? <FreeTextMatchNote match={freeMatch} /> : null}

        {mode === 'template' && template ? (
          <Preview parts={previewParts(template.content, values ?? [])} template={template} />
        ) : mode === 'free' && freeMatch?.kind === 'approved' ? (
          <Preview parts={previewParts(freeMatch.template.content, matchTemplate(freeText, freeMatch.template.content) ?? [])} template={freeMatch.template} />
        ) : null}

        {/* Free text: the field itself says the text is too long; the line only counts (said once). */}
        {text ? <MeasureLine length={size.length} units={size.units} tooLong={size.tooLong} saidByField={mode === 'free'} /> : null}
        {text &&
        !size.tooLong &&
        (mode === 'free' || (template && Array.from({ length: template.markerCount }, (_, i) => values?.[i] ?? '').every((v) => v.trim() !== ''))) ? (
          <div className="send-hear">
            <HearItButton text={text} size="small" />
          </div>
        ) : null}

        <Form.Item
          name="mobile"
          label={t('send.field.mobile')}
          tooltip={t('mobile.hint', { ns: 'msg' })}
          className="send-mobile"
          rules={[
            {
              validator: (_, v: string | undefined) => {
                const r = normalizeMobile(v ?? '');
                return r.ok ? Promise.resolve() : Promise.reject(new Error(t(`mobile.${r.error}`, { ns: 'msg' })));
              },
            },
          ]}
          extra={
            mobile.ok ? (
              <span className="send-mobile-normalised" data-testid="mobile-normalised" data-mobile={mobile.mobile}>
                <CheckCircleFilled aria-hidden /> {t('send.field.mobileNormalised', { mobile: mobile.mobile })}
              </span>
            ) : undefined
          }
        >
          <AutoComplete
            options={mobileOptions}
            showSearch={{ filterOption: false }}
            defaultActiveFirstOption={false}
            open={suggesting && mobileOptions.length > 0}
            onOpenChange={setSuggesting}
            onBlur={() => setSuggesting(false)}
            placeholder={t('send.field.mobilePlaceholder')}
            data-testid="mobile-input"
            style={{ maxWidth: 360 }}
          />
        </Form.Item>

        {problem}
        <div className="send-actions">
          <Button type="primary" size="large" htmlType="submit" icon={<PhoneOutlined />} loading={sending} disabled={sending} data-testid="send-button">
            {sending ? t('send.action.sending') : t('send.action.review')}
          </Button>
          <Text type="secondary" data-testid="send-cost">
            {text && !size.tooLong
              ? t('send.form.costLine', { units: t('send.units', { count: size.units }) })
              : t('send.form.costRule', { chars: CHARS_PER_UNIT })}
          </Text>
        </div>
      </Form>
    </Panel>
  );
}

function TemplateOption({ template }: { template: TemplateView }) {
  const { t } = useTranslation();
  return (
    <span className="send-option" title={template.content}>
      <span className="send-option-name">{template.name || t('send.field.unnamedTemplate')}</span>
      {template.approved ? null : <Tag color="warning">{t('send.field.pendingTag')}</Tag>}
      <Text type="secondary" ellipsis className="send-option-content">
        {template.content}
      </Text>
    </span>
  );
}

/** The exact text that will be read, with the filled values highlighted and unfilled markers shown by their label. */
function Preview({ parts, template }: { parts: PreviewPart[]; template: TemplateView }) {
  const { t } = useTranslation();
  return (
    <section className="send-preview-block" aria-labelledby="send-preview-title">
      <Text strong id="send-preview-title">
        {t('send.preview.title')}
      </Text>
      <div className="send-preview" data-testid="preview" lang="zh-CN">
        {parts.map((p, i) =>
          p.kind === 'literal' ? (
            <span key={i}>{p.text}</span>
          ) : p.filled ? (
            <mark key={i} className="send-preview-value" data-testid="preview-value">
              {p.text}
            </mark>
          ) : (
            <span key={i} className="send-preview-missing" aria-label={t('send.preview.missing', { label: markerLabel(t, template, p.index) })}>
              {markerLabel(t, template, p.index)}
            </span>
          ),
        )}
      </div>
    </section>
  );
}

function MeasureLine({ length, units, tooLong, saidByField }: { length: number; units: number; tooLong: boolean; saidByField: boolean }) {
  const { t } = useTranslation();
  if (tooLong) {
    return (
      <div className="send-measure" role="alert" data-testid="measure" data-too-long="true">
        <Text type="danger">
          <ExclamationCircleFilled aria-hidden /> {saidByField ? null : `${t('content.too-long', { ns: 'msg' })} `}
          {t('send.measure.count', { length, max: CONTENT_MAX })}
        </Text>
      </div>
    );
  }
  return (
    <div className="send-measure" data-testid="measure" data-length={length} data-units={units}>
      <Space size={8} wrap>
        <Tag className="send-measure-tag">{t('send.measure.characters', { count: length })}</Tag>
        <Tag className="send-measure-tag" color="blue">
          {t('send.units', { count: units })}
        </Tag>
        <Text type="secondary">{t('send.measure.rule', { chars: CHARS_PER_UNIT })}</Text>
      </Space>
    </div>
  );
}

function FreeTextMatchNote({ match }: { match: FreeTextMatch }) {
  const { t } = useTranslation();
  switch (match.kind) {
    case 'empty':
      return null;
    case 'approved':
      return (
        <Alert
          type="success"
          showIcon
          icon={<CheckCircleFilled />}
          data-testid="free-text-match"
          data-match="approved"
          role="status"
          title={t('send.match.approved', { name: match.template.name || t('send.field.unnamedTemplate') })}
          description={match.others > 0 ? t('send.match.others', { count: match.others }) : undefined}
          className="send-note"
        />
      );
    case 'pending':
      return (
        <Alert
          type="warning"
          showIcon
          icon={<WarningFilled />}
          data-testid="free-text-match"
          data-match="pending"
          role="status"
          title={t('send.match.pending', { name: match.template.name || t('send.field.unnamedTemplate') })}
          description={t('send.match.pendingBody')}
          className="send-note"
        />
      );
    case 'none':
      return (
        <Alert
          type="warning"
          showIcon
          data-testid="free-text-match"
          data-match="none"
          role="status"
          title={t('send.match.none')}
          description={t('send.match.noneBody')}
          className="send-note"
        />
      );
  }
}
