// Build: the inputs of one signature and every step main computes from them, each copyable.
import { Alert, Button, Col, Empty, Flex, Form, Input, Row, Segmented, Select, Spin, Tag, Typography } from 'antd';
import { ClockCircleOutlined, ExperimentOutlined, PushpinOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { ProfileView } from '../../../../common/contract';
import type { SignatureVariant } from '../../../../common/signature-types';
import { describeError } from '../../app/api';
import { HexBytes } from './HexBytes';
import { OutputBlock } from './OutputBlock';
import { curlCommand, httpDateNow, PRESETS, presetUrl, type PresetId } from './request-text';
import { StringToSignView } from './StringToSignView';
import type { BuildState } from './use-build';
import { openInWorkbench } from '../workbench/workbench-store';

export interface BuildTabProps {
  build: BuildState;
  profile: ProfileView | null;
}

export function BuildTab({ build, profile }: BuildTabProps) {
  const { t } = useTranslation();
  const { inputs, update, steps, fields } = build;

  const presetOptions = [
    {
      label: profile ? t('signature.preset.voiceGroup', { profile: profile.name }) : t('signature.preset.voiceGroupNoProfile'),
      options: PRESETS.filter((p) => p.group === 'voice').map((p) => ({
        value: p.id,
        disabled: presetUrl(p, profile?.baseUrl ?? null) === null,
        label: (
          <span data-testid={`preset-${p.id}`}>
            {t(`signature.preset.${p.id}`)} <Typography.Text type="secondary">{`${p.method} ${p.path}`}</Typography.Text>
          </span>
        ),
      })),
    },
    {
      label: t('signature.preset.exampleGroup'),
      options: PRESETS.filter((p) => p.group === 'numbercheck').map((p) => ({
        value: p.id,
        label: (
          <span data-testid={`preset-${p.id}`}>
            {t(`signature.preset.${p.id}`)} <Tag style={{ marginInlineStart: 4 }}>{t('signature.preset.example')}</Tag>
          </span>
        ),
      })),
    },
  ];

  const fieldHelp = (f: 'url' | 'apiId' | 'date') => (fields[f] ? t(`signature.build.problem.${fields[f]}`) : undefined);
  const curl = steps ? curlCommand(steps, inputs.body) : '';
  const isExamplePreset = inputs.preset === 'numbercheck-submit' || inputs.preset === 'numbercheck-balance';

  return (
    <Row gutter={[24, 16]}>
      <Col xs={24} xl={9}>
        <Form layout="vertical" className="callout-form sig-build-form" requiredMark={false} onSubmitCapture={(e) => e.preventDefault()}>
          <Form.Item label={t('signature.build.preset')} htmlFor="sig-preset" extra={isExamplePreset ? t('signature.preset.exampleNote') : undefined}>
            <Select<PresetId>
              id="sig-preset"
              value={inputs.preset ?? undefined}
              placeholder={t('signature.build.presetPlaceholder')}
              onChange={(id) => build.applyPreset(id)}
              options={presetOptions}
              data-testid="sig-preset"
            />
          </Form.Item>

          <Form.Item
            label={t('signature.build.url')}
            htmlFor="sig-url"
            validateStatus={fields.url ? 'error' : undefined}
            help={fieldHelp('url')}
            extra={steps ? <UrlReading steps={steps} /> : undefined}
          >
            <Input
              id="sig-url"
              className="sig-mono"
              value={inputs.url}
              onChange={(e) => update({ url: e.target.value, preset: null })}
              spellCheck={false}
              autoComplete="off"
              data-testid="sig-url"
            />
          </Form.Item>

          <Flex gap={16} wrap>
            <Form.Item label={t('signature.build.method')} style={{ flex: '0 0 auto' }}>
              <Segmented<'POST' | 'GET'>
                value={inputs.method}
                onChange={(method) => update({ method })}
                options={['POST', 'GET']}
                aria-label={t('signature.build.method')}
                data-testid="sig-method"
              />
            </Form.Item>
            <Form.Item
              label={t('signature.build.apiId')}
              htmlFor="sig-apiid"
              style={{ flex: '1 1 180px' }}
              validateStatus={fields.apiId ? 'error' : undefined}
              help={fieldHelp('apiId')}
            >
              <Input
                id="sig-apiid"
                className="sig-mono"
                value={inputs.apiId}
                onChange={(e) => update({ apiId: e.target.value })}
                spellCheck={false}
                autoComplete="off"
                data-testid="sig-apiid"
              />
            </Form.Item>
          </Flex>

          <Form.Item label={t('signature.build.date')} htmlFor="sig-date" validateStatus={fields.date ? 'error' : undefined} help={fieldHelp('date')}>
            <Flex vertical gap={8}>
              <Segmented<'now' | 'fixed'>
                value={inputs.dateMode}
                onChange={(dateMode) => update(dateMode === 'fixed' ? { dateMode, fixedDate: inputs.fixedDate || steps?.date || httpDateNow() } : { dateMode })}
                options={[
                  { value: 'now', label: <span data-testid="sig-date-now">{t('signature.build.dateNow')}</span> },
                  { value: 'fixed', label: <span data-testid="sig-date-fixed">{t('signature.build.dateFixed')}</span> },
                ]}
                aria-label={t('signature.build.date')}
              />
              {inputs.dateMode === 'fixed' ? (
                <Flex gap={8}>
                  <Input
                    id="sig-date"
                    className="sig-mono"
                    value={inputs.fixedDate}
                    onChange={(e) => update({ fixedDate: e.target.value })}
                    placeholder="Sat, 21 Nov 2026 22:36:54 GMT"
                    spellCheck={false}
                    autoComplete="off"
                    data-testid="sig-date"
                  />
                  <Button icon={<ClockCircleOutlined />} onClick={() => update({ fixedDate: httpDateNow() })}>
                    {t('signature.build.setNow')}
                  </Button>
                </Flex>
              ) : (
                <Flex gap={8} align="center" wrap>
                  <Typography.Text className="sig-mono" data-testid="sig-date-live">
                    {steps?.date ?? httpDateNow()}
                  </Typography.Text>
                  <Button size="small" icon={<PushpinOutlined />} onClick={() => update({ dateMode: 'fixed', fixedDate: steps?.date ?? httpDateNow() })}>
                    {t('signature.build.pin')}
                  </Button>
                </Flex>
              )}
            </Flex>
          </Form.Item>

          <Form.Item label={t('signature.build.variant')} extra={t(`signature.variant.${inputs.variant}Explain`)}>
            <Segmented<SignatureVariant>
              value={inputs.variant}
              onChange={(variant) => update({ variant })}
              options={[
                { value: 'spec', label: <span data-testid="sig-variant-spec">{t('signature.variant.spec')}</span> },
                { value: 'apisix', label: <span data-testid="sig-variant-apisix">{t('signature.variant.apisix')}</span> },
              ]}
              aria-label={t('signature.build.variant')}
            />
          </Form.Item>
          <Form.Item label={t('signature.build.body')} htmlFor="sig-body" extra={t('signature.build.bodyHint', { password: '{{password}}' })}>
            <Input.TextArea
              id="sig-body"
              className="sig-mono"
              value={inputs.body}
              onChange={(e) => update({ body: e.target.value })}
              autoSize={{ minRows: 2, maxRows: 8 }}
              spellCheck={false}
              data-testid="sig-body"
            />
          </Form.Item>
        </Form>
      </Col>

      <Col xs={24} xl={15}>
        <BuildOutputs build={build} curl={curl} profile={profile} />
      </Col>
    </Row>
  );
}

/** What the engine took from the URL, and what it dropped. */
function UrlReading({ steps }: { steps: NonNullable<BuildState['steps']> }) {
  const { t } = useTranslation();
  return (
    <div className="sig-url-reading" data-testid="sig-url-reading">
      <div>
        {t('signature.build.host')} <code data-testid="sig-host">{steps.host}</code>
        <span className="sig-sep">·</span>
        {t('signature.build.path')} <code data-testid="sig-path">{steps.path}</code>
      </div>
      {steps.query !== '' ? (
        <div data-testid="sig-query-note" className={steps.droppedQuery ? 'sig-note-warn' : undefined}>
          {steps.droppedQuery
            ? t('signature.build.queryDropped', { query: `?${steps.query}` })
            : t('signature.build.querySigned', { query: `?${steps.query}` })}
        </div>
      ) : null}
      {steps.droppedFragment ? (
        <div data-testid="sig-fragment-note" className="sig-note-warn">
          {t('signature.build.fragmentDropped')}
        </div>
      ) : null}
    </div>
  );
}

/** The Build case as a raw-client request on the profile (voice presets), where main fills the key and signs it again. */
function toRawClient(build: BuildState, profile: ProfileView) {
  const url = new URL(build.inputs.url);
  const base = new URL(profile.baseUrl);
  const prefix = base.pathname.replace(/\/+$/, '');
  const path = url.pathname.startsWith(prefix) ? url.pathname.slice(prefix.length) || '/' : url.pathname;
  openInWorkbench({
    profileId: profile.id,
    request: {
      method: build.inputs.method,
      path: `${path}${url.search}`,
      headers: [],
      omit: [],
      body: build.inputs.body.trim() ? { kind: 'json', text: build.inputs.body } : { kind: 'none' },
      credentials: 'none',
      format: 'json',
      signing: build.inputs.variant,
    },
  });
}

function BuildOutputs({ build, curl, profile }: { build: BuildState; curl: string; profile: ProfileView | null }) {
  const { t } = useTranslation();
  const { steps } = build;
  if (build.keyProblem) {
    return <Alert type="info" showIcon title={t(`signature.key.problem.${build.keyProblem}`)} data-testid="sig-build-key-problem" />;
  }
  if (build.error) {
    return <Alert type="error" showIcon title={t('signature.build.failed')} description={describeError(t, build.error)} data-testid="sig-build-error" />;
  }
  if (!steps) {
    if (build.computing) return <Spin />;
    return <Empty description={t('signature.build.fixFields')} image={Empty.PRESENTED_IMAGE_SIMPLE} />;
  }
  const bytes = steps.stringToSignBytesHex.length / 2;
  return (
    <Flex vertical gap={12} data-testid="sig-outputs" data-variant={steps.variant}>
      {steps.keyNote ? <Alert type="warning" showIcon title={t(`signature.key.notStored.${steps.keyNote}`)} data-testid="sig-key-note" /> : null}
      <OutputBlock
        step={1}
        title={t('signature.out.stringToSign')}
        copyWhat={t('signature.out.stringToSignWhat')}
        copyText={steps.stringToSign}
        testId="out-sts"
        extra={<Tag>{t(`signature.variant.${steps.variant}`)}</Tag>}
      >
        <StringToSignView text={steps.stringToSign} testId="sts" />
      </OutputBlock>
      <OutputBlock
        step={2}
        title={t('signature.out.bytes', { count: bytes })}
        copyWhat={t('signature.out.bytesWhat')}
        copyText={steps.stringToSignBytesHex}
        testId="out-bytes"
      >
        <HexBytes hex={steps.stringToSignBytesHex} markLineBreaks label={t('signature.out.bytesWhat')} />
        <div className="sig-hint">{t('signature.out.bytesHint')}</div>
      </OutputBlock>
      <OutputBlock step={3} title={t('signature.out.hmac')} copyWhat={t('signature.out.hmacWhat')} copyText={steps.hmacHex} testId="out-hmac">
        <HexBytes hex={steps.hmacHex} group={4} label={t('signature.out.hmacWhat')} />
      </OutputBlock>
      <OutputBlock step={4} title={t('signature.out.signature')} copyWhat={t('signature.out.signatureWhat')} copyText={steps.signature} testId="out-signature">
        <code className="sig-value" data-testid="sig-signature">
          {steps.signature}
        </code>
      </OutputBlock>
      <OutputBlock
        step={5}
        title={t('signature.out.authorization')}
        copyWhat={t('signature.out.authorizationWhat')}
        copyText={steps.authorization}
        testId="out-authorization"
      >
        <code className="sig-value" data-testid="sig-authorization">
          {steps.authorization}
        </code>
      </OutputBlock>
      <OutputBlock step={6} title={t('signature.out.curl')} copyWhat={t('signature.out.curlWhat')} copyText={curl} testId="out-curl">
        <pre className="sig-pre" data-testid="sig-curl">
          {curl}
        </pre>
        <div className="sig-hint">{t('signature.out.curlHint', { password: '{{password}}' })}</div>
        {profile && build.inputs.preset?.startsWith('voice-') ? (
          <Button icon={<ExperimentOutlined />} onClick={() => toRawClient(build, profile)} style={{ marginTop: 8 }} data-testid="sig-to-raw-client">
            {t('workbench.openInRawClient', { ns: 'msg' })}
          </Button>
        ) : null}
      </OutputBlock>
    </Flex>
  );
}
