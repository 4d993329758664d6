// A new bulk send, in three steps: choose the profile, the template and the file; map the file's
// columns to the mobile number and the template's markers (with sample rows and the first texts);
// read the validation report, choose what to do with duplicates, check the units against the
// balance, then create and start the batch. Nothing is sent before the last step's confirmation.
import { useEffect, useRef, useState } from 'react';
import { Alert, Button, Card, Flex, Form, Progress, Select, Steps, Tag, Typography, Upload } from 'antd';
import { InboxOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { ImportProgress, TemplateView } from '../../../../common/contract';
import { IMPORT_LIMITS } from '../../../../common/domain/import-limits';
import type { BatchRecord, DuplicatePolicy, ImportView } from '../../../../common/bulk-types';
import { describeError, type IpcError } from '../../app/api';
import { revealTop } from '../../app/reveal';
import { missingTargets, specFromTargets, targetsFromSpec, type ColumnTargets } from './bulk-model';
import { LinesEditor } from './lines';
import { MappingStep } from './MappingStep';
import { ReportStep } from './ReportStep';
import {
  cancelImportRead,
  discardImport,
  FILE_UNREADABLE,
  useBalanceUnits,
  useImportProgress,
  useOpenImport,
  useRemapImport,
  type BulkData,
} from './use-bulk-data';
import { useFeedback } from '../../app/feedback';

type Step = 'file' | 'mapping' | 'report';
const STEPS: Step[] = ['file', 'mapping', 'report'];

/** The import limits are main's (common/domain/import-limits): a larger file is not even sent. */
const MAX_FILE_BYTES = IMPORT_LIMITS.fileBytes;

export interface ImportWizardProps {
  data: BulkData;
  /** A batch was created and started: show it. */
  onStarted: (batch: BatchRecord) => void;
}

interface Problem {
  title: string;
  error: IpcError | null;
}

export function ImportWizard({ data, onStarted }: ImportWizardProps) {
  const { t } = useTranslation();
  const { message } = useFeedback();
  const approved = data.templates.filter((x) => x.approved);
  const firstProfile = data.profiles.find((p) => p.builtin && p.hasKey) ?? data.profiles.find((p) => p.hasKey) ?? data.profiles[0];
  const [profileId, setProfileId] = useState<string | undefined>(firstProfile?.id);
  const [templateId, setTemplateId] = useState<string | undefined>(approved.length === 1 ? approved[0]!.id : undefined);
  const [step, setStep] = useState<Step>('file');
  // Each step starts at its top: the last one may have been scrolled down to its buttons.
  const wizard = useRef<HTMLDivElement>(null);
  useEffect(() => {
    revealTop(wizard.current);
  }, [step]);
  const [file, setFile] = useState<File | null>(null);
  const [view, setView] = useState<ImportView | null>(null);
  const [targets, setTargets] = useState<ColumnTargets>({});
  // Reading happens in main's import worker: its progress is pushed (importProgress) under the
  // request's id, which is also what a cancel names.
  const [reading, setReading] = useState<{ requestId: string; progress: ImportProgress | null } | null>(null);
  const readingId = reading?.requestId ?? null;
  useImportProgress(readingId, (p) => setReading((r) => (r && r.requestId === p.requestId ? { ...r, progress: p } : r)));
  const cancelReading = () => {
    if (reading) cancelImportRead(reading.requestId);
  };
  // Fails with FILE_UNREADABLE when the file cannot be read from the disk, else with main's error.
  const opening = useOpenImport((requestId) => setReading(requestId ? { requestId, progress: null } : null));
  const remapping = useRemapImport();
  const balanceUnitsOf = useBalanceUnits();
  const [problem, setProblem] = useState<Problem | null>(null);
  const [balanceUnits, setBalanceUnits] = useState<number | null>(null);
  const [policy, setPolicy] = useState<DuplicatePolicy>('same-text');
  const [name, setName] = useState('');
  const importIdRef = useRef<string | null>(null);

  const template: TemplateView | null = data.templates.find((x) => x.id === (view?.templateId ?? templateId)) ?? null;
  const profile = data.profiles.find((p) => p.id === profileId) ?? null;

  // An import left open when the screen goes away is discarded in main (it holds the parsed file).
  useEffect(
    () => () => {
      const id = importIdRef.current;
      if (id) discardImport(id);
    },
    [],
  );

  const discardCurrent = () => {
    const id = importIdRef.current;
    importIdRef.current = null;
    if (id) discardImport(id);
  };

  const opened = (chosen: File, v: ImportView) => {
    discardCurrent();
    importIdRef.current = v.importId;
    const tpl = data.templates.find((x) => x.id === v.templateId) ?? null;
    setFile(chosen);
    setView(v);
    setTargets(tpl ? targetsFromSpec(v.columns, tpl, v.mapping) : {});
    setBalanceUnits(v.report.balance?.units ?? null);
    setName(chosen.name.replace(/\.(csv|xlsx|txt|tsv)$/i, ''));
    setPolicy('same-text');
    setStep('mapping');
  };

  const open = (chosen: File, forTemplate = templateId) => {
    if (!forTemplate) return;
    if (chosen.size > MAX_FILE_BYTES) {
      setProblem({
        title: t('bulk.file.openFailed', { name: chosen.name }),
        error: { code: 'import-too-large', params: { kind: 'fileBytes', max: MAX_FILE_BYTES, found: chosen.size } },
      });
      return;
    }
    setProblem(null);
    opening.mutate(
      { chosen, templateId: forTemplate, ...(profileId ? { profileId } : {}) },
      {
        onSuccess: (v) => opened(chosen, v),
        onError: (e) => {
          if (e === FILE_UNREADABLE) setProblem({ title: t('bulk.file.unreadable'), error: null });
          else if (e.code === 'import-cancelled') setProblem(null);
          else setProblem({ title: t('bulk.file.openFailed', { name: chosen.name }), error: e });
        },
      },
    );
  };

  const changeTemplate = (id: string) => {
    setTemplateId(id);
    // The file is read again for the new template: its markers decide the mapping.
    if (file) open(file, id);
  };

  const changeTargets = (next: ColumnTargets) => {
    setTargets(next);
    if (!view || !template) return;
    const missing = missingTargets(next, template.markerCount);
    if (missing.mobile || missing.markers.length) return;
    // Only the answer to the latest mapping is used (mutate's callbacks run for the last call only).
    remapping.mutate(
      { importId: view.importId, mapping: specFromTargets(next) },
      {
        onSuccess: (v) => {
          setView(v);
          setProblem(null);
        },
        onError: (e) => setProblem({ title: t('bulk.mapping.remapFailed'), error: e }),
      },
    );
  };

  const refreshBalance = async () => {
    if (!profileId) return;
    const units = await balanceUnitsOf(profileId);
    if (units !== null) setBalanceUnits(units);
    else void message.warning(t('bulk.report.balanceUnknown'));
  };

  const reset = () => {
    discardCurrent();
    setView(null);
    setFile(null);
    setTargets({});
    setProblem(null);
    setStep('file');
  };

  const stepIndex = STEPS.indexOf(step);
  const mappingComplete =
    !!template &&
    !!view &&
    (() => {
      const m = missingTargets(targets, template.markerCount);
      return !m.mobile && m.markers.length === 0;
    })();

  return (
    <Card ref={wizard} data-testid="import-wizard" data-step={step}>
      <Steps size="small" current={stepIndex} style={{ marginBottom: 20 }} items={STEPS.map((s) => ({ title: t(`bulk.step.${s}`) }))} />

      {problem ? (
        <Alert
          type="error"
          showIcon
          role="alert"
          data-testid="import-problem"
          title={problem.title}
          description={problem.error ? describeError(t, problem.error) : undefined}
          closable={{ onClose: () => setProblem(null) }}
          style={{ marginBottom: 16 }}
        />
      ) : null}

      {step === 'file' ? (
        <Form layout="vertical" className="bulk-file-form" requiredMark={false}>
          <Flex gap={24} wrap>
            <Form.Item
              label={t('bulk.field.profile')}
              htmlFor="bulk-profile"
              style={{ flex: '1 1 280px' }}
              extra={profile && !profile.hasKey ? t('bulk.field.profileNoKey') : undefined}
            >
              <Select
                id="bulk-profile"
                value={profileId}
                onChange={setProfileId}
                options={data.profiles.map((p) => ({ value: p.id, label: p.name, disabled: !p.hasKey }))}
                data-testid="bulk-profile"
              />
            </Form.Item>
            <Form.Item label={t('bulk.field.template')} htmlFor="bulk-template" style={{ flex: '2 1 420px' }}>
              <Select
                id="bulk-template"
                value={templateId}
                onChange={changeTemplate}
                placeholder={t('templates.choose', { ns: 'msg' })}
                showSearch={{ optionFilterProp: 'label' }}
                notFoundContent={t('templates.noneMatches', { ns: 'msg' })}
                options={data.templates.map((x) => ({
                  value: x.id,
                  label: `${x.name} · ${x.content}`,
                  disabled: !x.approved,
                  title: x.content,
                }))}
                optionRender={(o) => {
                  const x = data.templates.find((tp) => tp.id === o.value);
                  return (
                    <Flex vertical>
                      <span>
                        {x?.name} {x && !x.approved ? <Tag color="orange">{t('templates.pendingGroup', { ns: 'msg' })}</Tag> : null}
                      </span>
                      <Typography.Text type="secondary" ellipsis style={{ fontSize: 12 }}>
                        {x?.content}
                      </Typography.Text>
                    </Flex>
                  );
                }}
                data-testid="bulk-template"
              />
            </Form.Item>
          </Flex>
          <Form.Item label={t('bulk.lines.title')} extra={t('bulk.lines.help')}>
            <LinesEditor profileId={profileId ?? null} />
          </Form.Item>
          <Form.Item label={t('bulk.field.file')}>
            <Upload.Dragger
              accept=".csv,.xlsx,.txt,.tsv"
              multiple={false}
              showUploadList={false}
              disabled={!templateId || !profileId || opening.isPending}
              beforeUpload={(f) => {
                open(f);
                return false;
              }}
              data-testid="bulk-file"
            >
              <p className="ant-upload-drag-icon">
                <InboxOutlined aria-hidden />
              </p>
              <p className="ant-upload-text">
                {opening.isPending ? t('bulk.file.reading') : templateId ? t('bulk.file.choose') : t('bulk.file.templateFirst')}
              </p>
              <p className="ant-upload-hint">{t('bulk.file.hint')}</p>
            </Upload.Dragger>
          </Form.Item>
          {opening.isPending && reading ? (
            <Flex align="center" gap={12} style={{ marginBottom: 16 }} data-testid="bulk-reading">
              <Progress
                style={{ flex: 1, marginBottom: 0 }}
                percent={reading.progress ? Math.min(99, Math.round((reading.progress.bytes / Math.max(1, reading.progress.totalBytes)) * 100)) : 0}
                status="active"
                format={() => (reading.progress ? t(`bulk.file.phase.${reading.progress.phase}`, { rows: reading.progress.rows }) : t('bulk.file.reading'))}
              />
              <Button onClick={cancelReading} data-testid="bulk-reading-cancel">
                {t('common.cancel')}
              </Button>
            </Flex>
          ) : null}
          <Typography.Paragraph type="secondary" style={{ marginTop: -8 }}>
            {t('bulk.file.limits', { mb: Math.round(IMPORT_LIMITS.fileBytes / 1024 / 1024), rows: IMPORT_LIMITS.rows, chars: IMPORT_LIMITS.cellChars })}
          </Typography.Paragraph>
          {view && file ? (
            <Flex justify="space-between" align="center">
              <Typography.Text type="secondary">{t('bulk.file.current', { name: file.name, rows: view.report.totals.rows })}</Typography.Text>
              <Button type="primary" onClick={() => setStep('mapping')}>
                {t('bulk.next')}
              </Button>
            </Flex>
          ) : null}
        </Form>
      ) : null}

      {step === 'mapping' && view && template ? (
        <MappingStep
          view={view}
          template={template}
          targets={targets}
          busy={remapping.isPending}
          onChange={changeTargets}
          onBack={() => setStep('file')}
          onNext={() => setStep('report')}
          canContinue={mappingComplete && !remapping.isPending}
        />
      ) : null}

      {step === 'report' && view && template && profile ? (
        <ReportStep
          view={view}
          template={template}
          profile={profile}
          balanceUnits={balanceUnits}
          onRefreshBalance={() => void refreshBalance()}
          policy={policy}
          onPolicy={setPolicy}
          name={name}
          onName={setName}
          onBack={() => setStep('mapping')}
          onDiscard={reset}
          onStarted={(batch) => {
            importIdRef.current = null; // main dropped it when the batch was created
            reset();
            onStarted(batch);
          }}
        />
      ) : null}
    </Card>
  );
}
