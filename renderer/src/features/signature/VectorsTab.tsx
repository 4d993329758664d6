// Test vectors (docs/signature-test-vectors.md): export the Build case as a vector file, and check
// a file of vectors (picked or pasted), each reported PASS or FAIL with what did not match.
import { useRef, useState, type HTMLAttributes } from 'react';
import { Alert, Button, Card, Col, Flex, Form, Input, Row, Space, Table, Tag, Typography } from 'antd';
import type { TableColumnsType } from 'antd';
import { DownloadOutlined, ExperimentOutlined, FolderOpenOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { IpcError, ProfileView, VectorCheckView } from '../../../../common/contract';
import type { VectorCheck, VectorField } from '../../../../common/signature-types';
import { describeError } from '../../app/api';
import { CopyButton } from './CopyButton';
import { keyFor, type KeyState } from './KeyBar';
import { sayVectorCheck, sayVectorProblem } from './messages';
import { vectorFileName } from './request-text';
import { StringToSignView } from './StringToSignView';
import type { BuildState } from './use-build';
import { useCheckVectors, useExportVector } from './data';

export interface VectorsTabProps {
  build: BuildState;
  keyState: KeyState;
  profile: ProfileView | null;
}

/** Starts a download of `text` as a JSON file (a Blob link; nothing leaves the machine). */
function download(text: string, fileName: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: 'application/json' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  a.rel = 'noopener';
  document.body.appendChild(a);
  a.click();
  a.remove();
  window.setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

export function VectorsTab({ build, keyState, profile }: VectorsTabProps) {
  return (
    <Row gutter={[24, 16]}>
      <Col xs={24} xl={8}>
        <ExportCard build={build} keyState={keyState} profile={profile} />
      </Col>
      <Col xs={24} xl={16}>
        <ImportCard />
      </Col>
    </Row>
  );
}

function ExportCard({ build, keyState, profile }: VectorsTabProps) {
  const { t } = useTranslation();
  const [name, setName] = useState('');
  const steps = build.steps;
  const key = keyFor(keyState, profile);
  const suggested = steps ? `${t(`signature.variant.${steps.variant}`)}, ${steps.method} ${steps.path} (${steps.host})` : '';
  const previewRef = useRef<HTMLPreElement>(null);

  const exportCase = useExportVector(vectorFileName, ({ json, fileName }) => download(json, fileName));
  const exported = exportCase.data ?? null;

  const run = () => {
    if (!steps || !key.ok) return;
    const vectorName = name.trim() || suggested;
    exportCase.mutate({
      name: vectorName,
      apiId: build.inputs.apiId.trim(),
      method: build.inputs.method,
      url: steps.url,
      date: steps.date,
      variant: steps.variant,
      key: key.key,
    });
  };

  return (
    <Card size="small" title={t('signature.vectors.exportTitle')} data-testid="sig-export">
      <Typography.Paragraph type="secondary">{t('signature.vectors.exportIntro')}</Typography.Paragraph>
      {steps ? (
        <div className="sig-case" data-testid="export-case">
          <div>
            <code className="sig-break">
              {steps.method} {steps.url}
            </code>
          </div>
          <div>
            <code>{steps.date}</code> · {t(`signature.variant.${steps.variant}`)}
          </div>
        </div>
      ) : (
        <Alert type="info" showIcon title={t('signature.vectors.noCase')} style={{ marginBottom: 12 }} />
      )}
      <Form layout="vertical" requiredMark={false} onFinish={run}>
        <Form.Item label={t('signature.vectors.name')} htmlFor="sig-vector-name" style={{ marginBottom: 12 }}>
          <Input
            id="sig-vector-name"
            value={name}
            placeholder={suggested}
            onChange={(e) => setName(e.target.value)}
            maxLength={120}
            data-testid="vector-name"
          />
        </Form.Item>
        {key.ok && 'adHoc' in key.key ? <Alert type="warning" showIcon title={t('signature.vectors.typedKeyWritten')} style={{ marginBottom: 12 }} /> : null}
        {key.ok && 'profileId' in key.key && profile ? (
          <Alert type="info" showIcon title={t('signature.vectors.profileKeyRef', { ref: `profile:${profile.name}` })} style={{ marginBottom: 12 }} />
        ) : null}
        <Button
          type="primary"
          htmlType="submit"
          icon={<DownloadOutlined />}
          loading={exportCase.isPending}
          disabled={!steps || !key.ok}
          data-testid="vector-export"
        >
          {t('signature.vectors.export')}
        </Button>
      </Form>
      {exportCase.error ? (
        <Alert type="error" showIcon title={t('signature.vectors.exportFailed')} description={describeError(t, exportCase.error)} style={{ marginTop: 12 }} />
      ) : null}
      {exported ? (
        <div style={{ marginTop: 12 }} data-testid="vector-exported">
          <Flex align="center" justify="space-between" gap={8}>
            <Typography.Text>{t('signature.vectors.saved', { file: exported.fileName })}</Typography.Text>
            <Space size={4}>
              <Button size="small" type="link" onClick={() => download(exported.json, exported.fileName)}>
                {t('signature.vectors.downloadAgain')}
              </Button>
              <CopyButton text={exported.json} what={t('signature.vectors.jsonWhat')} target={previewRef} />
            </Space>
          </Flex>
          <pre className="sig-pre sig-pre-scroll" ref={previewRef} data-testid="vector-json">
            {exported.json}
          </pre>
        </div>
      ) : null}
    </Card>
  );
}

interface ExpectedOf {
  stringToSign?: string;
  signature?: string;
  authorization?: string;
}

/** The expected values of each vector, read from the file for display (main did the checking). */
function expectedValues(text: string): ExpectedOf[] {
  try {
    const file = JSON.parse(text.replace(/^\uFEFF/, '')) as { vectors?: { expected?: ExpectedOf }[] };
    return Array.isArray(file.vectors) ? file.vectors.map((v) => v?.expected ?? {}) : [];
  } catch {
    return [];
  }
}

function ImportCard() {
  const { t } = useTranslation();
  const [text, setText] = useState('');
  const [fileName, setFileName] = useState<string | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const checking = useCheckVectors(expectedValues);

  const check = (source: string) => {
    if (source.trim() !== '') checking.mutate(source);
  };

  const onFile = async (file: File | undefined) => {
    if (!file) return;
    const content = await file.text();
    setFileName(file.name);
    setText(content);
    check(content);
  };

  return (
    <Card size="small" title={t('signature.vectors.importTitle')} data-testid="sig-import">
      <Typography.Paragraph type="secondary">{t('signature.vectors.importIntro')}</Typography.Paragraph>
      <input
        ref={fileInput}
        type="file"
        accept=".json,application/json"
        hidden
        data-testid="vector-file"
        onChange={(e) => {
          void onFile(e.target.files?.[0]);
          e.target.value = '';
        }}
      />
      <Flex gap={8} wrap style={{ marginBottom: 12 }} align="center">
        <Button icon={<FolderOpenOutlined />} onClick={() => fileInput.current?.click()} data-testid="vector-open">
          {t('signature.vectors.open')}
        </Button>
        {fileName ? <Typography.Text type="secondary">{fileName}</Typography.Text> : null}
      </Flex>
      <Input.TextArea
        className="sig-mono"
        value={text}
        onChange={(e) => (setText(e.target.value), setFileName(null))}
        autoSize={{ minRows: 3, maxRows: 8 }}
        placeholder={t('signature.vectors.pastePlaceholder')}
        aria-label={t('signature.vectors.paste')}
        spellCheck={false}
        data-testid="vector-text"
      />
      <Button
        type="primary"
        icon={<ExperimentOutlined />}
        style={{ marginTop: 12 }}
        loading={checking.isPending}
        disabled={text.trim() === ''}
        onClick={() => check(text)}
        data-testid="vector-check"
      >
        {t('signature.vectors.check')}
      </Button>
      {checking.error ? <CheckError error={checking.error} /> : null}
      {checking.data ? <VectorResults view={checking.data.value} expected={checking.data.expected} /> : null}
    </Card>
  );
}

/** Why the file could not be checked: for a file that is not a valid vector file, each problem at its place. */
function CheckError({ error }: { error: IpcError }) {
  const { t } = useTranslation();
  const badFile = error.code === 'vector-file-invalid';
  // Each issue is a problem at a place in the file (`vectors[2].input.date`); `text` is the file as a whole.
  const problems = badFile ? (error.issues ?? []) : [];
  return (
    <Alert
      type="error"
      showIcon
      style={{ marginTop: 12 }}
      title={badFile ? t('signature.vectors.badFile') : t('signature.vectors.checkFailed')}
      description={
        <>
          <div>{describeError(t, error)}</div>
          {problems.length > 0 ? (
            <ul className="sig-list" data-testid="vector-problems">
              {problems.map((p, i) => (
                <li key={i} data-where={p.path} data-problem={p.message}>
                  {p.path !== 'text' ? <code className="sig-break">{p.path}</code> : null}
                  {p.path !== 'text' ? t('signature.labelSeparator') : null}
                  {sayVectorProblem(t, p.message)}
                </li>
              ))}
            </ul>
          ) : null}
        </>
      }
      data-testid="vector-file-error"
      data-error={badFile ? error.params.kind : error.code}
    />
  );
}

const FIELDS: VectorField[] = ['stringToSign', 'signature', 'authorization'];

function VectorResults({ view, expected }: { view: VectorCheckView; expected: ExpectedOf[] }) {
  const { t } = useTranslation();
  const results = view.results;
  const failed = results.filter((r) => !r.pass && !r.needsKey).length;
  const needKey = results.filter((r) => r.needsKey).length;
  const passed = results.filter((r) => r.pass).length;

  const resultTag = (r: VectorCheck) =>
    r.pass ? (
      <Tag color="success">{t('signature.vectors.pass')}</Tag>
    ) : r.needsKey ? (
      <Tag color="warning">{t('signature.vectors.needsKey')}</Tag>
    ) : (
      <Tag color="error">{t('signature.vectors.fail')}</Tag>
    );

  const columns: TableColumnsType<VectorCheck> = [
    { key: 'index', title: '#', width: 44, render: (_: unknown, r) => r.index + 1 },
    { key: 'name', title: t('signature.vectors.colName'), render: (_: unknown, r) => <span data-testid="vector-name-cell">{r.name}</span> },
    { key: 'variant', title: t('signature.vectors.colVariant'), width: 108, render: (_: unknown, r) => t(`signature.variant.${r.variant}`) },
    { key: 'result', title: t('signature.vectors.colResult'), width: 96, render: (_: unknown, r) => <span data-testid="vector-result">{resultTag(r)}</span> },
    {
      key: 'mismatch',
      title: t('signature.vectors.colMismatch'),
      width: 170,
      render: (_: unknown, r) =>
        r.needsKey ? (
          <span>{t('signature.vectors.needsKeyCell', { ref: r.needsKey })}</span>
        ) : r.error ? (
          <span data-testid="vector-error">{sayVectorCheck(t, r.error)}</span>
        ) : r.mismatches.length > 0 ? (
          <span data-testid="vector-mismatches">{r.mismatches.map((f) => t(`signature.vectors.field.${f}`)).join(t('signature.vectors.listSeparator'))}</span>
        ) : (
          <Typography.Text type="secondary">—</Typography.Text>
        ),
    },
  ];

  return (
    <div style={{ marginTop: 16 }} data-testid="vector-results" data-passed={passed} data-failed={failed} data-needkey={needKey}>
      <Alert
        type={failed > 0 ? 'error' : needKey > 0 ? 'warning' : 'success'}
        showIcon
        title={<span data-testid="vector-summary">{t('signature.vectors.summary', { passed, failed, needKey, total: results.length })}</span>}
        style={{ marginBottom: 12 }}
      />
      {view.missingKeys.length > 0 ? (
        <Alert
          type="warning"
          showIcon
          style={{ marginBottom: 12 }}
          title={t('signature.vectors.missingTitle')}
          description={
            <>
              <div>
                {view.missingKeys.map((k) => (
                  <Tag key={k} className="sig-mono">
                    {k}
                  </Tag>
                ))}
              </div>
              <div style={{ marginTop: 4 }}>{t('signature.vectors.missingBody')}</div>
            </>
          }
          data-testid="vector-missing-keys"
        />
      ) : null}
      <Table<VectorCheck>
        size="small"
        rowKey="index"
        pagination={results.length > 50 ? { pageSize: 50, showSizeChanger: false } : false}
        columns={columns}
        dataSource={results}
        onRow={(r) => ({ 'data-testid': 'vector-row', 'data-index': r.index, 'data-pass': r.pass ? 'true' : 'false' }) as HTMLAttributes<HTMLElement>}
        expandable={{
          rowExpandable: (r) => !r.pass && r.actual !== null && r.mismatches.length > 0,
          defaultExpandedRowKeys: results
            .filter((r) => !r.pass && r.actual !== null && r.mismatches.length > 0)
            .slice(0, 3)
            .map((r) => r.index),
          expandedRowRender: (r) => <MismatchDetail check={r} expected={expected[r.index] ?? {}} />,
        }}
      />
    </div>
  );
}

function MismatchDetail({ check, expected }: { check: VectorCheck; expected: ExpectedOf }) {
  const { t } = useTranslation();
  if (!check.actual) return null;
  const actual = check.actual;
  return (
    <Flex vertical gap={8} data-testid="vector-detail">
      {FIELDS.filter((f) => check.mismatches.includes(f)).map((f) => (
        <div key={f}>
          <Typography.Text strong>{t(`signature.vectors.field.${f}`)}</Typography.Text>
          <Row gutter={16}>
            <Col span={12}>
              <Typography.Text type="secondary">{t('signature.vectors.expected')}</Typography.Text>
              {f === 'stringToSign' && expected.stringToSign !== undefined ? (
                <StringToSignView text={expected.stringToSign} />
              ) : (
                <pre className="sig-pre">{expected[f] === undefined ? '—' : <Differences text={expected[f]} other={actual[f]} />}</pre>
              )}
            </Col>
            <Col span={12}>
              <Typography.Text type="secondary">{t('signature.vectors.actual')}</Typography.Text>
              {f === 'stringToSign' ? (
                <StringToSignView text={actual.stringToSign} />
              ) : (
                <pre className="sig-pre">
                  <Differences text={actual[f]} other={expected[f] ?? ''} />
                </pre>
              )}
            </Col>
          </Row>
        </div>
      ))}
    </Flex>
  );
}

/** `text` with the characters that differ from `other` (position by position) marked. */
function Differences({ text, other }: { text: string; other: string }) {
  const parts: { same: boolean; text: string }[] = [];
  for (let i = 0; i < text.length; i++) {
    const same = text[i] === other[i];
    const last = parts[parts.length - 1];
    if (last && last.same === same) last.text += text[i];
    else parts.push({ same, text: text[i]! });
  }
  return (
    <>
      {parts.map((p, i) =>
        p.same ? (
          <span key={i}>{p.text}</span>
        ) : (
          <mark key={i} className="sig-diff">
            {p.text}
          </mark>
        ),
      )}
    </>
  );
}
