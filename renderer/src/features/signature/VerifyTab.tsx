// Verify & diagnose: a pasted request (raw HTTP, cURL or headers) is read by main
// (signature.parseRequest), then checked with a key (signature.diagnose). The answer names the
// verdict, the parts that differ, the clock skew against the ±300 s window (drawn), the likely
// causes, and the string to sign of both variants side by side.
import { useEffect, useState, type HTMLAttributes, type ReactNode } from 'react';
import { Alert, Button, Card, Col, Descriptions, Empty, Flex, Form, Input, Row, Segmented, Space, Table, Tag, Typography } from 'antd';
import type { TableColumnsType } from 'antd';
import { CheckCircleFilled, CloseCircleFilled, ImportOutlined, SafetyCertificateOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { ProfileView } from '../../../../common/contract';
import type { DiagnosisView } from '../../../../common/contract';
import type { CapturedRequest, Diagnosis, DiagnosisCause, DiagnosisPart, PartStatus, SignatureVariant } from '../../../../common/signature-types';
import { describeError } from '../../app/api';
import { currentLanguage } from '../../i18n';
import { keyFor, type KeyState } from './KeyBar';
import { sayDiagnosis, sayParseProblem, sayParseWarning } from './messages';
import { httpDateNow, rawHttpRequest } from './request-text';
import { formatAbsSeconds, SkewGauge } from './SkewGauge';
import { StringToSignView } from './StringToSignView';
import type { BuildState } from './use-build';
import { useDiagnose, type GatewayVariant } from './data';

export interface VerifyTabProps {
  keyState: KeyState;
  profile: ProfileView | null;
  build: BuildState;
}

export function VerifyTab({ keyState, profile, build }: VerifyTabProps) {
  const { t } = useTranslation();
  const [text, setText] = useState('');
  const [defaultUrl, setDefaultUrl] = useState('');
  const [variant, setVariant] = useState<GatewayVariant>(profile?.signing === 'apisix' ? 'apisix' : 'spec');
  const [compareMode, setCompareMode] = useState<'now' | 'fixed'>('now');
  const [compareTime, setCompareTime] = useState('');
  // An action on what was pasted: the answer stays until the next one (or Clear).
  const diagnosis = useDiagnose();
  const outcome = diagnosis.data ?? null;
  const key = keyFor(keyState, profile);
  // The gateway of a profile that signs with APISIX checks APISIX: start from the profile's variant.
  const profileSigning = profile?.signing ?? null;
  useEffect(() => {
    if (profileSigning === 'spec' || profileSigning === 'apisix') setVariant(profileSigning);
  }, [profileSigning]);

  const diagnose = () => {
    if (!key.ok || text.trim() === '' || diagnosis.isPending) return;
    const now = compareMode === 'fixed' && compareTime.trim() !== '' ? compareTime.trim() : httpDateNow();
    // With the profile's key, keyId must name the profile's API ID (main compares them: a gateway
    // refuses another keyId). A typed key belongs to no known account: keyId is shown, not compared.
    diagnosis.mutate({ text, defaultUrl: defaultUrl.trim() || build.inputs.url.trim(), variant, now, key: key.key });
  };

  const compareInvalid = compareMode === 'fixed' && compareTime.trim() !== '' && Number.isNaN(Date.parse(compareTime));

  return (
    <Flex vertical gap={16}>
      <Row gutter={[24, 16]}>
        <Col xs={24} xl={10}>
          <Form layout="vertical" className="callout-form" requiredMark={false} onFinish={diagnose}>
            <Form.Item label={t('signature.verify.captured')} htmlFor="sig-captured" extra={t('signature.verify.capturedHint')} style={{ marginBottom: 12 }}>
              <Input.TextArea
                id="sig-captured"
                className="sig-mono"
                value={text}
                onChange={(e) => setText(e.target.value)}
                onKeyDown={(e) => {
                  if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
                    e.preventDefault();
                    diagnose();
                  }
                }}
                autoSize={{ minRows: 7, maxRows: 14 }}
                spellCheck={false}
                placeholder={
                  'POST /voice/vm HTTP/1.1\nHost: api.example.com\nDate: Sat, 21 Nov 2026 22:36:54 GMT\nAuthorization: Signature keyId="…", algorithm="hmac-sha256", headers="@request-target date host", signature="…"'
                }
                data-testid="sig-captured"
              />
            </Form.Item>
            <Form.Item
              label={t('signature.verify.defaultUrl')}
              htmlFor="sig-default-url"
              extra={t('signature.verify.defaultUrlHint')}
              style={{ marginBottom: 12 }}
            >
              <Input
                id="sig-default-url"
                className="sig-mono"
                value={defaultUrl}
                placeholder={build.inputs.url || 'https://api.example.com/voice/vm'}
                onChange={(e) => setDefaultUrl(e.target.value)}
                spellCheck={false}
                autoComplete="off"
                data-testid="sig-default-url"
              />
            </Form.Item>
            <Form.Item label={t('signature.verify.gatewayVariant')} style={{ marginBottom: 12 }}>
              <Segmented<GatewayVariant>
                value={variant}
                onChange={setVariant}
                options={[
                  { value: 'spec', label: <span data-testid="verify-variant-spec">{t('signature.variant.spec')}</span> },
                  { value: 'apisix', label: <span data-testid="verify-variant-apisix">{t('signature.variant.apisix')}</span> },
                  { value: 'any', label: <span data-testid="verify-variant-any">{t('signature.variant.any')}</span> },
                ]}
                aria-label={t('signature.verify.gatewayVariant')}
              />
            </Form.Item>
            <Form.Item
              label={t('signature.verify.compareWith')}
              style={{ marginBottom: 12 }}
              validateStatus={compareInvalid ? 'error' : undefined}
              help={compareInvalid ? t('signature.build.problem.date-invalid') : undefined}
            >
              <Flex vertical gap={8}>
                <Segmented<'now' | 'fixed'>
                  value={compareMode}
                  onChange={(m) => {
                    setCompareMode(m);
                    if (m === 'fixed' && compareTime === '') setCompareTime(httpDateNow());
                  }}
                  options={[
                    { value: 'now', label: <span data-testid="compare-now">{t('signature.verify.compareNow')}</span> },
                    { value: 'fixed', label: <span data-testid="compare-fixed">{t('signature.verify.compareFixed')}</span> },
                  ]}
                  aria-label={t('signature.verify.compareWith')}
                />
                {compareMode === 'fixed' ? (
                  <Input
                    className="sig-mono"
                    value={compareTime}
                    onChange={(e) => setCompareTime(e.target.value)}
                    aria-label={t('signature.verify.compareTime')}
                    spellCheck={false}
                    autoComplete="off"
                    data-testid="sig-compare-time"
                  />
                ) : null}
              </Flex>
            </Form.Item>
            {!key.ok ? <Alert type="info" showIcon title={t(`signature.key.problem.${key.reason}`)} style={{ marginBottom: 12 }} /> : null}
            <Space wrap>
              <Button
                type="primary"
                htmlType="submit"
                icon={<SafetyCertificateOutlined />}
                loading={diagnosis.isPending}
                disabled={!key.ok || text.trim() === '' || compareInvalid}
                data-testid="sig-diagnose"
              >
                {t('signature.verify.diagnose')}
              </Button>
              <Button
                icon={<ImportOutlined />}
                disabled={!build.steps}
                onClick={() => build.steps && setText(rawHttpRequest(build.steps, build.inputs.body))}
                data-testid="sig-use-build"
              >
                {t('signature.verify.useBuild')}
              </Button>
              <Button
                onClick={() => {
                  setText('');
                  diagnosis.reset();
                }}
              >
                {t('signature.verify.clear')}
              </Button>
            </Space>
            <Typography.Paragraph type="secondary" style={{ fontSize: 12, marginTop: 8, marginBottom: 0 }}>
              {t('signature.verify.shortcut')}
            </Typography.Paragraph>
          </Form>
          {outcome?.kind === 'diagnosed' ? <Understood request={outcome.request} /> : null}
        </Col>
        <Col xs={24} xl={14}>
          <div aria-live="polite" data-testid="sig-verify-result">
            {diagnosis.error ? (
              <Alert
                type="error"
                showIcon
                title={t('signature.verify.failed')}
                description={describeError(t, diagnosis.error)}
                data-testid="sig-verify-error"
              />
            ) : outcome === null ? (
              <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('signature.verify.empty')} />
            ) : outcome.kind === 'parse-error' ? (
              <Alert
                type="error"
                showIcon
                title={t(`signature.parse.${outcome.error}`)}
                description={sayParseProblem(t, outcome.detail)}
                data-testid="sig-parse-error"
                data-error={outcome.error}
                data-detail={outcome.detail.code}
              />
            ) : (
              <DiagnosisSummary diagnosis={outcome.diagnosis} comparedWith={outcome.comparedWith} />
            )}
          </div>
        </Col>
      </Row>
      {outcome?.kind === 'diagnosed' ? <DiagnosisDetail diagnosis={outcome.diagnosis} variant={outcome.variant} /> : null}
    </Flex>
  );
}

/** What main read from the pasted text. */
function Understood({ request }: { request: CapturedRequest }) {
  const { t } = useTranslation();
  const h = request.headers;
  const none = <Typography.Text type="secondary">{t('signature.verify.none')}</Typography.Text>;
  return (
    <Card
      size="small"
      title={t('signature.verify.understood', { format: t(`signature.verify.format.${request.format}`) })}
      style={{ marginTop: 16 }}
      data-testid="sig-understood"
    >
      <Descriptions
        size="small"
        column={1}
        styles={{ label: { width: 120 } }}
        items={[
          { key: 'method', label: t('signature.verify.method'), children: <code data-testid="understood-method">{request.method}</code> },
          {
            key: 'url',
            label: t('signature.verify.url'),
            children: (
              <code className="sig-break" data-testid="understood-url">
                {request.url}
              </code>
            ),
          },
          {
            key: 'host',
            label: 'Host',
            children: h.host ? (
              <code data-testid="understood-host">{h.host}</code>
            ) : (
              <span>
                {none} · {t('signature.verify.hostFromUrl')}
              </span>
            ),
          },
          { key: 'date', label: 'Date', children: h.date ? <code data-testid="understood-date">{h.date}</code> : none },
          {
            key: 'authorization',
            label: 'Authorization',
            children: h.authorization ? (
              <code className="sig-break" data-testid="understood-authorization">
                {h.authorization}
              </code>
            ) : (
              none
            ),
          },
        ]}
      />
      {request.warnings.length > 0 ? (
        <Alert
          type="warning"
          showIcon
          style={{ marginTop: 8 }}
          title={t('signature.verify.warnings')}
          description={
            <ul className="sig-list">
              {request.warnings.map((w, i) => (
                <li key={i} data-warning={w.code}>
                  {sayParseWarning(t, w)}
                </li>
              ))}
            </ul>
          }
          data-testid="understood-warnings"
        />
      ) : null}
    </Card>
  );
}

function matchedVariant(d: Diagnosis): SignatureVariant | null {
  if (d.variants.spec.matches) return 'spec';
  if (d.variants.apisix.matches) return 'apisix';
  return null;
}

/** The verdict, the likely causes and the clock, at the top right. */
function DiagnosisSummary({ diagnosis: d, comparedWith }: { diagnosis: DiagnosisView; comparedWith: string }) {
  const { t, i18n } = useTranslation();
  const lang = currentLanguage(i18n.language);
  const top = d.causes[0];
  const matched = matchedVariant(d);
  const seconds = d.skew.seconds;
  const skewText =
    seconds === null
      ? t('signature.skew.none')
      : seconds === 0
        ? t('signature.skew.inStep')
        : t(seconds > 0 ? 'signature.skew.ahead' : 'signature.skew.behind', { seconds: formatAbsSeconds(lang, seconds) });
  return (
    <Flex vertical gap={12}>
      {d.keyNote ? <Alert type="warning" showIcon title={t(`signature.key.notStored.${d.keyNote}`)} data-testid="verify-key-note" /> : null}
      <Alert
        type={d.valid ? 'success' : 'error'}
        showIcon
        data-testid="verdict"
        data-verdict={d.verdict ?? 'valid'}
        title={
          <span data-testid="verdict-title">
            {d.valid
              ? t('signature.verdict.valid', { variant: t(`signature.variant.${matched ?? 'spec'}`) })
              : t('signature.verdict.invalid', { reason: t(`signature.verdict.${d.verdict ?? 'signature-mismatch'}`, { ns: 'msg' }) })}
          </span>
        }
        description={
          <>
            {d.valid ? <div>{t('signature.verdict.validBody')}</div> : <div>{t(`signature.verdict.explain.${d.verdict ?? 'signature-mismatch'}`)}</div>}
            {!d.valid && top ? (
              <div style={{ marginTop: 4 }} data-testid="verdict-cause">
                <Typography.Text strong>{t('signature.verdict.mostLikely', { cause: t(`signature.cause.${top.id}.name`) })}</Typography.Text>
              </div>
            ) : null}
            {d.detail ? (
              <div style={{ marginTop: 4 }} data-testid="verdict-detail" data-detail={d.detail.code}>
                {sayDiagnosis(t, d.detail)}
              </div>
            ) : null}
          </>
        }
      />

      {d.causes.length > 0 ? (
        <Card size="small" title={t('signature.cause.title')} data-testid="sig-causes">
          <Flex vertical gap={10}>
            {d.causes.map((c) => (
              <CauseItem key={c.id} cause={c} />
            ))}
          </Flex>
        </Card>
      ) : null}

      <Card size="small" title={t('signature.skew.title')} data-testid="sig-skew">
        <SkewGauge
          seconds={seconds}
          windowSeconds={d.skew.windowSeconds}
          label={`${skewText} ${t('signature.skew.window', { seconds: d.skew.windowSeconds })}`}
          testId="verify-gauge"
        />
        <Typography.Paragraph style={{ marginBottom: 0, marginTop: 4 }} data-testid="sig-skew-text">
          {skewText} {t('signature.skew.window', { seconds: d.skew.windowSeconds })}{' '}
          {seconds === null ? null : d.skew.within ? (
            <Tag color="success">{t('signature.skew.within')}</Tag>
          ) : (
            <Tag color="error">{t('signature.skew.outside')}</Tag>
          )}
        </Typography.Paragraph>
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          {t('signature.skew.comparedWith')} <span className="sig-mono">{comparedWith}</span>
        </Typography.Text>
      </Card>
    </Flex>
  );
}

const CONFIDENCE_COLOR = { high: 'red', medium: 'orange', low: 'default' } as const;

function CauseItem({ cause }: { cause: DiagnosisCause }) {
  const { t } = useTranslation();
  return (
    <div className="sig-cause" data-testid="cause" data-cause={cause.id} data-confidence={cause.confidence}>
      <Flex align="center" gap={8} wrap>
        <Typography.Text strong data-testid="cause-name">
          {t(`signature.cause.${cause.id}.name`)}
        </Typography.Text>
        <Tag color={CONFIDENCE_COLOR[cause.confidence]}>{t(`signature.cause.confidence.${cause.confidence}`)}</Tag>
      </Flex>
      <div>{t(`signature.cause.${cause.id}.explain`)}</div>
      <div className="sig-evidence" data-testid="cause-evidence" data-evidence={cause.evidence.code}>
        <Typography.Text type="secondary">{t('signature.cause.evidence')}</Typography.Text> {sayDiagnosis(t, cause.evidence)}
      </div>
    </div>
  );
}

const STATUS_TAG: Record<PartStatus, { color: string; icon?: ReactNode }> = {
  ok: { color: 'success', icon: <CheckCircleFilled /> },
  differs: { color: 'error', icon: <CloseCircleFilled /> },
  missing: { color: 'warning' },
  unknown: { color: 'default' },
};

/** The parts table, the inferred string to sign, and both variants side by side. */
function DiagnosisDetail({ diagnosis: d, variant }: { diagnosis: Diagnosis; variant: GatewayVariant }) {
  const { t } = useTranslation();
  const value = (v: string | null) =>
    v === null ? <Typography.Text type="secondary">{t('signature.verify.none')}</Typography.Text> : <code className="sig-break">{v}</code>;
  const columns: TableColumnsType<DiagnosisPart> = [
    {
      key: 'part',
      title: t('signature.parts.part'),
      width: 150,
      render: (_: unknown, p) => <Typography.Text strong>{t(`signature.parts.name.${p.part}`)}</Typography.Text>,
    },
    {
      key: 'status',
      title: t('signature.parts.status'),
      width: 120,
      render: (_: unknown, p) => (
        <Tag color={STATUS_TAG[p.status].color} icon={STATUS_TAG[p.status].icon} data-testid="part-status" data-status={p.status}>
          {t(`signature.parts.statusName.${p.status}`)}
        </Tag>
      ),
    },
    { key: 'got', title: t('signature.parts.got'), render: (_: unknown, p) => value(p.got) },
    { key: 'expected', title: t('signature.parts.expected'), render: (_: unknown, p) => value(p.expected) },
    {
      key: 'note',
      title: t('signature.parts.note'),
      width: 240,
      render: (_: unknown, p) =>
        p.note ? (
          <span data-testid="part-note" data-note={p.note.code}>
            {sayDiagnosis(t, p.note)}
          </span>
        ) : null,
    },
  ];
  const gatewayChecks = (v: SignatureVariant) => variant === 'any' || variant === v;

  return (
    <Flex vertical gap={16}>
      <Card size="small" title={t('signature.parts.title')}>
        <Table<DiagnosisPart>
          size="small"
          rowKey="part"
          pagination={false}
          columns={columns}
          dataSource={d.parts}
          onRow={(p) => ({ 'data-part': p.part, 'data-status': p.status }) as HTMLAttributes<HTMLElement>}
          data-testid="sig-parts"
        />
      </Card>

      {d.inferred ? (
        <Card size="small" title={t('signature.inferred.title')} data-testid="sig-inferred">
          <ul className="sig-list">
            {d.inferred.changes.map((c, i) => (
              <li key={i} data-testid="inferred-change" data-dimension={c.dimension}>
                <Typography.Text strong>{t(`signature.inferred.dimension.${c.dimension}`)}</Typography.Text>
                {t('signature.labelSeparator')}
                {c.dimension === 'framing'
                  ? t('signature.inferred.change', { from: t(`signature.inferred.form.${c.from}`), to: t(`signature.inferred.form.${c.to}`) })
                  : t('signature.inferred.change', { from: c.from, to: c.to })}
              </li>
            ))}
          </ul>
          <StringToSignView text={d.inferred.stringToSign} testId="inferred-sts" />
        </Card>
      ) : null}

      <div>
        <Typography.Title level={5} style={{ marginTop: 0 }}>
          {t('signature.variants.title')}
        </Typography.Title>
        <Typography.Paragraph type="secondary" style={{ marginTop: -4 }}>
          {t('signature.variants.intro')}
        </Typography.Paragraph>
        <Row gutter={[16, 16]} data-testid="sig-variants">
          {(['spec', 'apisix'] as const).map((v) => {
            const c = d.variants[v];
            return (
              <Col xs={24} lg={12} key={v}>
                <Card
                  size="small"
                  className={c.matches ? 'sig-variant sig-variant-match' : 'sig-variant'}
                  data-testid={`variant-${v}`}
                  data-matches={c.matches ? 'true' : 'false'}
                  title={
                    <Flex gap={8} align="center" wrap>
                      <span>{t(`signature.variant.${v}`)}</span>
                      {gatewayChecks(v) ? <Tag>{t('signature.variants.checked')}</Tag> : null}
                    </Flex>
                  }
                  extra={
                    c.matches ? (
                      <Tag color="success" icon={<CheckCircleFilled />}>
                        {t('signature.variants.matches')}
                      </Tag>
                    ) : (
                      <Tag>{t('signature.variants.noMatch')}</Tag>
                    )
                  }
                >
                  <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                    {t(`signature.variant.${v}Explain`)}
                  </Typography.Text>
                  <StringToSignView text={c.stringToSign} testId={`variant-${v}-sts`} />
                  <div style={{ marginTop: 8 }}>
                    <Typography.Text type="secondary">{t('signature.variants.signature')}</Typography.Text> <code className="sig-break">{c.signature}</code>
                  </div>
                </Card>
              </Col>
            );
          })}
        </Row>
      </div>
    </Flex>
  );
}
