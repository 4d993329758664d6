// The raw client's request: method, path and query, headers (Callout's, and one's own that add to or
// replace them), the body as form fields, JSON or raw text (malformed on purpose is fine: it is
// sent as written), where Callout's parameters go, the format and the signature, the assertions
// and captures of a saved request, and a preview of exactly what will be sent.
import { useMemo, useState } from 'react';
import { Alert, AutoComplete, Button, Checkbox, Empty, Input, Radio, Segmented, Select, Space, Spin, Switch, Tabs, Tag, Typography } from 'antd';
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { Assertion, Capture, OmittableHeader, RawBody, RawHeaderRow, RawRequest } from '../../../../common/contract';
import { OMITTABLE_HEADERS } from '../../../../common/contract/workbench';
import { variablesIn } from '../../../../common/domain/variables';
import { describeError } from '../../app/api';
import { useRawPreview } from './data';
import { editDraft, editRequest, type Draft } from './workbench-store';

export const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'];

/** Whether a JSON body parses: the editor says so, and sends it as written either way. */
function jsonState(text: string): 'valid' | 'invalid' | 'empty' {
  if (text.trim() === '') return 'empty';
  try {
    JSON.parse(text);
    return 'valid';
  } catch {
    return 'invalid';
  }
}

/** The variable names a request and its assertions use (account and password are filled by main). */
export function usedVariables(d: Pick<Draft, 'request' | 'assertions'>): string[] {
  const r = d.request;
  const texts = [r.path, ...r.headers.filter((h) => h.enabled).map((h) => h.value)];
  if (r.body.kind === 'json' || r.body.kind === 'text') texts.push(r.body.text);
  if (r.body.kind === 'form') for (const f of r.body.fields) if (f.enabled) texts.push(f.name, f.value);
  for (const a of d.assertions) if (a.kind === 'json-equals') texts.push(a.equals);
  return [...new Set(texts.flatMap(variablesIn))].filter((n) => n !== 'account' && n !== 'password');
}

function HeadersTab({ request }: { request: RawRequest }) {
  const { t } = useTranslation();
  const set = (headers: RawHeaderRow[]) => editRequest({ headers });
  const row = (i: number, patch: Partial<RawHeaderRow>) => set(request.headers.map((h, j) => (j === i ? { ...h, ...patch } : h)));
  const toggleOmit = (name: OmittableHeader, send: boolean) => editRequest({ omit: send ? request.omit.filter((o) => o !== name) : [...request.omit, name] });
  return (
    <div data-testid="wb-headers">
      <Typography.Paragraph type="secondary" className="wb-hint">
        {t('workbench.headers.hint')}
      </Typography.Paragraph>
      <Space wrap size={[16, 4]} style={{ marginBottom: 10 }}>
        <Typography.Text>{t('workbench.headers.callout')}</Typography.Text>
        {OMITTABLE_HEADERS.map((name) => (
          <Checkbox key={name} checked={!request.omit.includes(name)} onChange={(e) => toggleOmit(name, e.target.checked)} data-testid={`wb-omit-${name}`}>
            <code>{name}</code>
          </Checkbox>
        ))}
      </Space>
      {request.headers.map((h, i) => (
        <Space.Compact key={i} className="wb-row">
          <Switch
            size="small"
            checked={h.enabled}
            onChange={(enabled) => row(i, { enabled })}
            aria-label={t('workbench.headers.enabled', { n: i + 1 })}
            className="wb-row-switch"
          />
          <Input
            value={h.name}
            placeholder={t('workbench.headers.name')}
            onChange={(e) => row(i, { name: e.target.value })}
            className="wb-mono wb-key"
            aria-label={t('workbench.headers.nameN', { n: i + 1 })}
            data-testid="wb-header-name"
          />
          <Input
            value={h.value}
            placeholder={t('workbench.headers.value')}
            onChange={(e) => row(i, { value: e.target.value })}
            className="wb-mono"
            aria-label={t('workbench.headers.valueN', { n: i + 1 })}
            data-testid="wb-header-value"
          />
          <Button icon={<DeleteOutlined />} onClick={() => set(request.headers.filter((_, j) => j !== i))} aria-label={t('workbench.remove', { n: i + 1 })} />
        </Space.Compact>
      ))}
      <Button
        icon={<PlusOutlined />}
        onClick={() => set([...request.headers, { name: '', value: '', enabled: true }])}
        disabled={request.headers.length >= 100}
        data-testid="wb-add-header"
      >
        {t('workbench.headers.add')}
      </Button>
    </div>
  );
}

function BodyTab({ request }: { request: RawRequest }) {
  const { t } = useTranslation();
  const body = request.body;
  const setBody = (b: RawBody) => editRequest({ body: b });
  const choose = (kind: RawBody['kind']) => {
    const text = body.kind === 'json' || body.kind === 'text' ? body.text : '';
    if (kind === 'none') setBody({ kind });
    else if (kind === 'form') setBody({ kind, fields: body.kind === 'form' ? body.fields : [] });
    else setBody({ kind, text });
  };
  const state = body.kind === 'json' ? jsonState(body.text) : null;
  return (
    <div data-testid="wb-body">
      <Segmented<RawBody['kind']>
        value={body.kind}
        onChange={choose}
        options={(['none', 'form', 'json', 'text'] as const).map((k) => ({
          value: k,
          label: <span data-testid={`wb-body-${k}`}>{t(`workbench.body.${k}`)}</span>,
        }))}
        style={{ marginBottom: 10 }}
      />
      {body.kind === 'json' || body.kind === 'text' ? (
        <>
          <Input.TextArea
            value={body.text}
            onChange={(e) => setBody({ ...body, text: e.target.value })}
            autoSize={{ minRows: 5, maxRows: 16 }}
            className="wb-mono"
            spellCheck={false}
            aria-label={t('workbench.body.text')}
            data-testid="wb-body-text"
          />
          {state === 'invalid' ? (
            <Typography.Text type="warning" className="wb-hint" data-testid="wb-json-invalid">
              {t('workbench.body.invalidJson')}
            </Typography.Text>
          ) : null}
        </>
      ) : null}
      {body.kind === 'form' ? (
        <>
          {body.fields.map((f, i) => (
            <Space.Compact key={i} className="wb-row">
              <Switch
                size="small"
                checked={f.enabled}
                onChange={(enabled) => setBody({ ...body, fields: body.fields.map((x, j) => (j === i ? { ...x, enabled } : x)) })}
                className="wb-row-switch"
                aria-label={t('workbench.body.enabled', { n: i + 1 })}
              />
              <Input
                value={f.name}
                placeholder={t('workbench.body.field')}
                onChange={(e) => setBody({ ...body, fields: body.fields.map((x, j) => (j === i ? { ...x, name: e.target.value } : x)) })}
                className="wb-mono wb-key"
                data-testid="wb-field-name"
              />
              <Input
                value={f.value}
                placeholder={t('workbench.body.value')}
                onChange={(e) => setBody({ ...body, fields: body.fields.map((x, j) => (j === i ? { ...x, value: e.target.value } : x)) })}
                className="wb-mono"
                data-testid="wb-field-value"
              />
              <Button
                icon={<DeleteOutlined />}
                onClick={() => setBody({ ...body, fields: body.fields.filter((_, j) => j !== i) })}
                aria-label={t('workbench.remove', { n: i + 1 })}
              />
            </Space.Compact>
          ))}
          <Button
            icon={<PlusOutlined />}
            onClick={() => setBody({ ...body, fields: [...body.fields, { name: '', value: '', enabled: true }] })}
            data-testid="wb-add-field"
          >
            {t('workbench.body.addField')}
          </Button>
        </>
      ) : null}
      {body.kind === 'none' ? <Typography.Text type="secondary">{t('workbench.body.noneHint')}</Typography.Text> : null}
    </div>
  );
}

function OptionsTab({ request, profileSigning }: { request: RawRequest; profileSigning: 'off' | 'spec' | 'apisix' }) {
  const { t } = useTranslation();
  return (
    <div className="wb-options" data-testid="wb-options">
      <div>
        <Typography.Text strong>{t('workbench.options.credentials')}</Typography.Text>
        <Radio.Group
          value={request.credentials}
          onChange={(e) => editRequest({ credentials: e.target.value as RawRequest['credentials'] })}
          className="wb-radio"
          data-testid="wb-credentials"
        >
          {(['body', 'query', 'none'] as const).map((c) => (
            <Radio key={c} value={c} data-testid={`wb-credentials-${c}`}>
              {t(`workbench.options.credentials_${c}`)}
            </Radio>
          ))}
        </Radio.Group>
        <Typography.Paragraph type="secondary" className="wb-hint">
          {t('workbench.options.credentialsHint')}
        </Typography.Paragraph>
      </div>
      <Space wrap size={24}>
        <div>
          <Typography.Text strong>{t('workbench.options.format')}</Typography.Text>
          <div>
            <Segmented<'json' | 'xml'>
              value={request.format}
              onChange={(format) => editRequest({ format })}
              options={[
                { value: 'json', label: 'JSON' },
                { value: 'xml', label: 'XML' },
              ]}
              data-testid="wb-format"
            />
          </div>
        </div>
        <div>
          <Typography.Text strong>{t('workbench.options.signing')}</Typography.Text>
          <div>
            <Select<RawRequest['signing']>
              value={request.signing}
              onChange={(signing) => editRequest({ signing })}
              style={{ width: 220 }}
              data-testid="wb-signing"
              options={[
                { value: 'profile', label: t('workbench.options.signingProfile', { mode: t(`workbench.options.signing_${profileSigning}`) }) },
                { value: 'off', label: t('workbench.options.signing_off') },
                { value: 'spec', label: t('workbench.options.signing_spec') },
                { value: 'apisix', label: t('workbench.options.signing_apisix') },
              ]}
            />
          </div>
        </div>
      </Space>
    </div>
  );
}

const ASSERTION_KINDS: Assertion['kind'][] = ['status', 'code', 'json-equals', 'json-exists'];

function blankAssertion(kind: Assertion['kind']): Assertion {
  if (kind === 'status') return { kind, equals: 200 };
  if (kind === 'code') return { kind, equals: 2 };
  if (kind === 'json-exists') return { kind, path: '' };
  return { kind, path: '', equals: '' };
}

function AssertionsTab({ assertions, captures }: { assertions: Assertion[]; captures: Capture[] }) {
  const { t } = useTranslation();
  const set = (list: Assertion[]) => editDraft({ assertions: list });
  const setAt = (i: number, a: Assertion) => set(assertions.map((x, j) => (j === i ? a : x)));
  const setCaptures = (list: Capture[]) => editDraft({ captures: list });
  return (
    <div data-testid="wb-assertions">
      <Typography.Paragraph type="secondary" className="wb-hint">
        {t('workbench.assert.hint')}
      </Typography.Paragraph>
      {assertions.map((a, i) => (
        <Space.Compact key={i} className="wb-row" data-testid="wb-assertion">
          <Select<Assertion['kind']>
            value={a.kind}
            onChange={(kind) => setAt(i, blankAssertion(kind))}
            options={ASSERTION_KINDS.map((k) => ({ value: k, label: t(`workbench.assert.kind_${k}`) }))}
            style={{ width: 170 }}
            aria-label={t('workbench.assert.kindN', { n: i + 1 })}
            data-testid="wb-assertion-kind"
          />
          {a.kind === 'json-equals' || a.kind === 'json-exists' ? (
            <Input
              value={a.path}
              placeholder="$.code"
              onChange={(e) => setAt(i, { ...a, path: e.target.value })}
              className="wb-mono wb-key"
              aria-label={t('workbench.assert.pathN', { n: i + 1 })}
              data-testid="wb-assertion-path"
            />
          ) : null}
          {a.kind === 'status' || a.kind === 'code' ? (
            <Input
              value={String(a.equals)}
              onChange={(e) => setAt(i, { ...a, equals: Number(e.target.value.replace(/[^\d-]/g, '')) || 0 })}
              className="wb-mono"
              aria-label={t('workbench.assert.equalsN', { n: i + 1 })}
              data-testid="wb-assertion-equals"
            />
          ) : a.kind === 'json-equals' ? (
            <Input
              value={a.equals}
              placeholder={t('workbench.assert.equalsPlaceholder')}
              onChange={(e) => setAt(i, { ...a, equals: e.target.value })}
              className="wb-mono"
              aria-label={t('workbench.assert.equalsN', { n: i + 1 })}
              data-testid="wb-assertion-equals"
            />
          ) : null}
          <Button icon={<DeleteOutlined />} onClick={() => set(assertions.filter((_, j) => j !== i))} aria-label={t('workbench.remove', { n: i + 1 })} />
        </Space.Compact>
      ))}
      <Button
        icon={<PlusOutlined />}
        onClick={() => set([...assertions, blankAssertion('status')])}
        disabled={assertions.length >= 50}
        data-testid="wb-add-assertion"
      >
        {t('workbench.assert.add')}
      </Button>
      <Typography.Title level={5} style={{ marginTop: 16 }}>
        {t('workbench.capture.title')}
      </Typography.Title>
      <Typography.Paragraph type="secondary" className="wb-hint">
        {t('workbench.capture.hint', { example: '{{smsid}}' })}
      </Typography.Paragraph>
      {captures.map((c, i) => (
        <Space.Compact key={i} className="wb-row">
          <Input
            value={c.variable}
            addonBefore={t('workbench.capture.variable')}
            onChange={(e) => setCaptures(captures.map((x, j) => (j === i ? { ...x, variable: e.target.value } : x)))}
            className="wb-mono"
            data-testid="wb-capture-variable"
          />
          <Input
            value={c.path}
            addonBefore={t('workbench.capture.path')}
            onChange={(e) => setCaptures(captures.map((x, j) => (j === i ? { ...x, path: e.target.value } : x)))}
            className="wb-mono"
            data-testid="wb-capture-path"
          />
          <Button icon={<DeleteOutlined />} onClick={() => setCaptures(captures.filter((_, j) => j !== i))} aria-label={t('workbench.remove', { n: i + 1 })} />
        </Space.Compact>
      ))}
      <Button icon={<PlusOutlined />} onClick={() => setCaptures([...captures, { variable: '', path: '' }])} disabled={captures.length >= 20}>
        {t('workbench.capture.add')}
      </Button>
    </div>
  );
}

/** Exactly what would be sent now (main builds it; the key shows as [REDACTED]). */
function PreviewTab({ draft }: { draft: Draft }) {
  const { t } = useTranslation();
  const input = draft.profileId
    ? { profileId: draft.profileId, environmentId: draft.environmentId, collectionId: draft.collectionId, request: draft.request }
    : null;
  const preview = useRawPreview(input);
  if (!input) return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} />;
  if (preview.error) return <Alert type="warning" showIcon title={describeError(t, preview.error)} data-testid="wb-preview-error" />;
  const p = preview.data;
  if (!p) return <Spin />;
  let target = p.url;
  try {
    const u = new URL(p.url);
    target = `${u.pathname}${u.search}`;
  } catch {
    // shown as it is
  }
  return (
    <div data-testid="wb-preview">
      {p.unresolved.length ? (
        <Alert type="warning" showIcon title={t('workbench.preview.unresolved', { names: p.unresolved.join(', ') })} style={{ marginBottom: 8 }} />
      ) : null}
      <Typography.Paragraph type="secondary" className="wb-hint">
        {t('workbench.preview.hint')}
      </Typography.Paragraph>
      <pre className="wb-pre" data-testid="wb-preview-text">
        {[`${p.method} ${target} HTTP/1.1`, ...p.headers.map(([n, v]) => `${n}: ${v}`), '', p.body ?? ''].join('\n')}
      </pre>
    </div>
  );
}

export function RequestTabs({ draft, profileSigning }: { draft: Draft; profileSigning: 'off' | 'spec' | 'apisix' }) {
  const { t } = useTranslation();
  const [tab, setTab] = useState('body');
  const r = draft.request;
  const counts = useMemo(
    () => ({
      headers: r.headers.filter((h) => h.enabled).length,
      assertions: draft.assertions.length,
    }),
    [r.headers, draft.assertions],
  );
  const badge = (n: number) => (n ? <Tag className="wb-count">{n}</Tag> : null);
  return (
    <Tabs
      activeKey={tab}
      onChange={setTab}
      size="small"
      items={[
        { key: 'body', label: <span data-testid="wb-tab-body">{t('workbench.tabs.body')}</span>, children: <BodyTab request={r} /> },
        {
          key: 'headers',
          label: (
            <span data-testid="wb-tab-headers">
              {t('workbench.tabs.headers')}
              {badge(counts.headers)}
            </span>
          ),
          children: <HeadersTab request={r} />,
        },
        {
          key: 'options',
          label: <span data-testid="wb-tab-options">{t('workbench.tabs.options')}</span>,
          children: <OptionsTab request={r} profileSigning={profileSigning} />,
        },
        {
          key: 'assertions',
          label: (
            <span data-testid="wb-tab-assertions">
              {t('workbench.tabs.assertions')}
              {badge(counts.assertions)}
            </span>
          ),
          children: <AssertionsTab assertions={draft.assertions} captures={draft.captures} />,
        },
        {
          key: 'preview',
          label: <span data-testid="wb-tab-preview">{t('workbench.tabs.preview')}</span>,
          children: tab === 'preview' ? <PreviewTab draft={draft} /> : null,
        },
      ]}
    />
  );
}

export function MethodInput({ value }: { value: string }) {
  const { t } = useTranslation();
  return (
    <AutoComplete
      value={value}
      options={METHODS.map((m) => ({ value: m }))}
      onChange={(method: string) => editRequest({ method: method.toUpperCase() })}
      style={{ width: 120 }}
      aria-label={t('workbench.method')}
      data-testid="wb-method"
      className="wb-mono"
    />
  );
}
