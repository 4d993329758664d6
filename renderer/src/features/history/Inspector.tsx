// The raw inspector for one exchange: the request (line, headers, body) and the response (status
// line, headers, body, or why none came), pretty and raw views of JSON, XML and form bodies, the
// timings as a waterfall bar, and the tester's actions (cURL, cURL with the key, HAR). Secrets were
// redacted before storing: the placeholder is shown highlighted wherever it appears.
import { Fragment, useMemo, useState, type ReactNode } from 'react';
import { Alert, Button, Drawer, Empty, Segmented, Space, Tag, Typography } from 'antd';
import { NodeIndexOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { ExchangeRecord, Header } from '../../../../common/records';
import { describeTransport } from '../../app/api';
import { currentLanguage } from '../../i18n';
import { bodyKind, byteLength, headerValue, prettyBody, REDACTED, type BodyKind } from './body-format';
import { CopyCurlButtons, ExportHarButton, pathOf, ReplayButton, statusText } from './exchange-actions';
import { formatBytes, formatTime } from './history-model';
import { TimingBar } from './TimingBar';
import { CaptureChecks } from './CaptureChecks';
import { TeachDrawer } from '../dialects/TeachDrawer';

/** Exchanges a reply dialect reads, and so can be taught from. */
const TEACHABLE = new Set(['send', 'status', 'balance', 'receipt']);

/** "Map this reply…": opens the teach flow on a send, status or balance reply, or a receipt, of a profile. */
export function MapReplyButton({ exchange: e }: { exchange: ExchangeRecord }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const readable = e.operation === 'receipt' ? e.requestBody !== null : e.status !== null && e.status >= 200 && e.status < 300;
  if (!TEACHABLE.has(e.operation) || !e.profile || !readable) return null;
  return (
    <>
      <Button icon={<NodeIndexOutlined />} onClick={() => setOpen(true)} data-testid="map-reply">
        {t('dialects.teach.button')}
      </Button>
      <TeachDrawer exchangeId={open ? e.id : null} onClose={() => setOpen(false)} />
    </>
  );
}

/** Text with every redaction placeholder marked, so a reader sees at once what was hidden. */
export function Redacted({ text }: { text: string }) {
  const parts = text.split(REDACTED);
  if (parts.length === 1) return <>{text}</>;
  return (
    <>
      {parts.map((part, i) => (
        <Fragment key={i}>
          {part}
          {i < parts.length - 1 ? (
            <mark className="history-redacted" data-testid="redacted">
              {REDACTED}
            </mark>
          ) : null}
        </Fragment>
      ))}
    </>
  );
}

function Headers({ headers, testId }: { headers: Header[]; testId: string }) {
  const { t } = useTranslation();
  if (!headers.length) return <Typography.Text type="secondary">{t('history.inspector.noHeaders')}</Typography.Text>;
  return (
    <dl className="history-headers" data-testid={testId}>
      {headers.map(([name, value], i) => (
        <Fragment key={`${name}-${i}`}>
          <dt>{name}</dt>
          <dd>
            <Redacted text={value} />
          </dd>
        </Fragment>
      ))}
    </dl>
  );
}

const KIND_NAMES: Record<BodyKind, string> = { json: 'JSON', xml: 'XML', html: 'HTML', form: 'Form', text: 'Text' };

/**
 * The body as stored has its secrets replaced by [REDACTED]: its size can differ from the
 * Content-Length the request carried. Said next to the size, so the two never look contradictory.
 */
function Body({ body, contentType, contentLength, testId }: { body: string | null; contentType: string | undefined; contentLength?: string; testId: string }) {
  const { t } = useTranslation();
  const kind = body ? bodyKind(body, contentType) : 'text';
  const pretty = useMemo(() => (body ? prettyBody(body, kind) : null), [body, kind]);
  const [view, setView] = useState<'pretty' | 'raw'>('pretty');
  if (body === null || body === '') {
    return (
      <Typography.Text type="secondary" data-testid={testId}>
        {t('history.inspector.noBody')}
      </Typography.Text>
    );
  }
  const showing = view === 'pretty' && pretty !== null ? pretty : body;
  return (
    <div className="history-body-block">
      <div className="history-body-bar">
        <Tag>{kind === 'form' ? t('history.inspector.formBody') : kind === 'text' ? t('history.inspector.textBody') : KIND_NAMES[kind]}</Tag>
        <Typography.Text type="secondary" style={{ fontSize: 12, whiteSpace: 'nowrap' }} data-testid={`${testId}-size`}>
          {formatBytes(byteLength(body))}
        </Typography.Text>
        <span style={{ flex: 1 }} />
        {pretty !== null ? (
          <Segmented<'pretty' | 'raw'>
            size="small"
            value={view}
            onChange={setView}
            options={[
              { value: 'pretty', label: t('history.inspector.pretty') },
              { value: 'raw', label: t('history.inspector.raw') },
            ]}
            data-testid={`${testId}-view`}
          />
        ) : null}
      </div>
      {contentLength !== undefined && Number(contentLength) !== byteLength(body) && body.includes(REDACTED) ? (
        <Typography.Paragraph type="secondary" style={{ fontSize: 12, marginBottom: 6 }} data-testid={`${testId}-redaction-note`}>
          {t('history.inspector.sizeRedacted', { shown: formatBytes(byteLength(body)), sent: contentLength })}
        </Typography.Paragraph>
      ) : null}
      {kind === 'html' ? <Alert type="warning" showIcon title={t('history.inspector.htmlReply')} style={{ marginBottom: 8 }} /> : null}
      <pre className="history-pre" data-testid={testId} data-view={pretty !== null ? view : 'raw'} tabIndex={0}>
        <Redacted text={showing} />
      </pre>
    </div>
  );
}

function Half({ title, line, children, testId }: { title: string; line: ReactNode; children: ReactNode; testId: string }) {
  return (
    <section className="history-half" data-testid={testId} aria-label={title}>
      <Typography.Title level={5} style={{ marginTop: 0 }}>
        {title}
      </Typography.Title>
      <code className="history-start-line">{line}</code>
      {children}
    </section>
  );
}

export interface ExchangeInspectorProps {
  exchange: ExchangeRecord;
  /** Show the action buttons (cURL, HAR); on by default. */
  actions?: boolean;
}

export function ExchangeInspector({ exchange: e, actions = true }: ExchangeInspectorProps) {
  const { t, i18n } = useTranslation();
  const lang = currentLanguage(i18n.language);
  const replied = e.status !== null;
  let url: URL | null;
  try {
    url = new URL(e.url);
  } catch {
    url = null;
  }
  const target = url ? url.pathname + url.search : e.url;
  return (
    <div className="history-inspector" data-testid="inspector" data-exchange-id={e.id}>
      <div className="history-inspector-summary">
        <Space wrap size={[8, 4]}>
          <Tag color="blue">{t(`history.operation.${e.operation}`)}</Tag>
          <Typography.Text code>
            {e.method} {pathOf(e.url)}
          </Typography.Text>
          <Tag color={!replied ? 'red' : e.status! >= 400 ? 'red' : e.status! >= 300 ? 'orange' : 'green'} data-testid="inspector-status">
            {statusText(t, e)}
          </Tag>
          <Typography.Text type="secondary">{formatTime(lang, e.startedAt, true)}</Typography.Text>
          {e.archive ? (
            <Tag color="purple" data-testid="inspector-archive">
              {t('history.exchanges.fromArchive', { name: e.archive })}
            </Tag>
          ) : null}
        </Space>
        {actions ? (
          <Space wrap size={8}>
            {/* Teaching reads the live store's exchange by id: not offered on an archived one. */}
            {e.archive ? null : <MapReplyButton exchange={e} />}
            <CopyCurlButtons exchange={e} />
            <ExportHarButton ids={[e.id]} {...(e.archive ? { archive: e.archive } : {})} />
            <ReplayButton exchange={e} />
          </Space>
        ) : null}
      </div>

      {e.capture ? <CaptureChecks capture={e.capture} /> : null}

      <TimingBar timings={e.timings} replied={replied} />

      <div className="history-halves">
        <Half
          title={t('history.inspector.request')}
          testId="inspector-request"
          line={
            <>
              <b>{e.method}</b> {target} HTTP/1.1
              {url ? <span className="history-muted"> · {url.host}</span> : null}
            </>
          }
        >
          <Typography.Text strong className="history-part-title">
            {t('history.inspector.headers')}
          </Typography.Text>
          <Headers headers={e.requestHeaders} testId="request-headers" />
          <Typography.Text strong className="history-part-title">
            {t('history.inspector.body')}
          </Typography.Text>
          <Body
            body={e.requestBody}
            contentType={headerValue(e.requestHeaders, 'content-type')}
            contentLength={headerValue(e.requestHeaders, 'content-length')}
            testId="request-body"
          />
        </Half>
        <Half
          title={t('history.inspector.response')}
          testId="inspector-response"
          line={replied ? `HTTP/1.1 ${statusText(t, e)}` : <span className="history-danger">{t('history.inspector.noReply')}</span>}
        >
          {e.error ? (
            <Alert
              type={replied ? 'warning' : 'error'}
              showIcon
              title={t('history.inspector.transportError', { what: t(`transportShort.${e.error.kind}`, { ns: 'msg' }) })}
              description={describeTransport(t, e.error)}
              style={{ marginBottom: 8 }}
              data-testid="inspector-error"
            />
          ) : null}
          {replied || e.responseHeaders ? (
            <>
              <Typography.Text strong className="history-part-title">
                {t('history.inspector.headers')}
              </Typography.Text>
              <Headers headers={e.responseHeaders ?? []} testId="response-headers" />
              <Typography.Text strong className="history-part-title">
                {t('history.inspector.body')}
              </Typography.Text>
              <Body body={e.responseBody} contentType={headerValue(e.responseHeaders, 'content-type')} testId="response-body" />
            </>
          ) : (
            <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('history.inspector.noReplyBody')} />
          )}
        </Half>
      </div>
    </div>
  );
}

export function InspectorDrawer({ exchange, onClose }: { exchange: ExchangeRecord | null; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Drawer
      open={exchange !== null}
      onClose={onClose}
      size={Math.min(1040, Math.max(640, window.innerWidth - 160))}
      title={t('history.inspector.title', { id: exchange?.id ?? '' })}
      destroyOnHidden
      data-testid="inspector-drawer"
    >
      {exchange ? <ExchangeInspector key={exchange.id} exchange={exchange} /> : null}
    </Drawer>
  );
}
