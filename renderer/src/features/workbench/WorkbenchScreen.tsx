// The tester's workbench: saved requests in collections (left), the raw client (right): compose any
// request to a profile, send it and see the exchange in the inspector with its assertions; import a
// pasted cURL command or raw HTTP; copy it as code; save it in a collection; run a collection with
// an environment. The API Key never comes here: main fills {{password}} and writes code with the
// key to the clipboard itself.
import { useEffect, useState } from 'react';
import { Alert, Button, Dropdown, Empty, Input, Modal, Select, Space, Tooltip, Typography } from 'antd';
import { CodeOutlined, ImportOutlined, KeyOutlined, PlusOutlined, SaveOutlined, SendOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { CodeTarget, InputOf, RawImport, RawResult } from '../../../../common/contract';
import { CODE_TARGETS } from '../../../../common/contract/workbench';
import { describeError, describeReason } from '../../app/api';
import { copyText } from '../../app/browser-io';
import { profilesQuery } from '../../app/query';
import { consoleShell } from '../../app/browser-transport';
import { ExchangeInspector } from '../history/Inspector';
import { sayParseProblem, sayParseWarning } from '../signature/messages';
import { CollectionsPanel } from './CollectionsPanel';
import { useCollections, useCopyCode, useEnvironments, useRawSend, useReadRawImport, useSaveRequest } from './data';
import { MethodInput, RequestTabs, usedVariables } from './RequestEditor';
import { AssertionLine, OutcomeTag } from './RunResults';
import { draftStore, editDraft, editRequest, newDraft, useDraft } from './workbench-store';
import { isUntouchedNew, newRequestFor, sendsCall } from './new-request';
import { useFeedback } from '../../app/feedback';
import './workbench.css';

const CODE_NAMES: Record<CodeTarget, string> = { curl: 'cURL', node: 'Node fetch', python: 'Python requests', go: 'Go' };

function ImportModal({ open, onClose, profileId }: { open: boolean; onClose: () => void; profileId: string }) {
  const { t } = useTranslation();
  const [text, setText] = useState('');
  const [result, setResult] = useState<RawImport | null>(null);
  const read = useReadRawImport((r) => {
    setResult(r);
    if (r.ok && !r.warnings.length && !r.otherOrigin) use(r);
  });
  const use = (r: RawImport) => {
    if (!r.ok) return;
    draftStore.set((d) => ({ ...d, request: r.request, savedId: null, name: '', dirty: true }));
    setText('');
    setResult(null);
    onClose();
  };
  return (
    <Modal
      open={open}
      title={t('workbench.import.title')}
      onCancel={onClose}
      width={720}
      destroyOnHidden
      footer={
        result?.ok ? (
          <Button type="primary" onClick={() => use(result)} data-testid="wb-import-use">
            {t('workbench.import.use')}
          </Button>
        ) : (
          <Button type="primary" onClick={() => read.mutate({ profileId, text })} loading={read.isPending} disabled={!text.trim()} data-testid="wb-import-read">
            {t('workbench.import.read')}
          </Button>
        )
      }
    >
      <Typography.Paragraph type="secondary">{t('workbench.import.hint')}</Typography.Paragraph>
      <Input.TextArea
        value={text}
        onChange={(e) => {
          setText(e.target.value);
          setResult(null);
        }}
        autoSize={{ minRows: 6, maxRows: 14 }}
        className="wb-mono"
        spellCheck={false}
        placeholder="curl -X POST 'https://…/voice/balance' -H 'X-Trace: 1' --data-raw '{…}'"
        data-testid="wb-import-text"
      />
      {read.error ? <Alert type="error" showIcon title={describeError(t, read.error)} style={{ marginTop: 8 }} /> : null}
      {result && !result.ok ? (
        <Alert
          type="error"
          showIcon
          title={t('workbench.import.failed')}
          description={sayParseProblem(t, result.detail as never)}
          style={{ marginTop: 8 }}
          data-testid="wb-import-error"
        />
      ) : null}
      {result?.ok && (result.warnings.length || result.otherOrigin) ? (
        <Alert
          type="warning"
          showIcon
          style={{ marginTop: 8 }}
          title={t('workbench.import.read_ok', { method: result.request.method, path: result.request.path })}
          description={
            <ul className="wb-list">
              {result.otherOrigin ? <li>{t('workbench.import.otherOrigin', { origin: result.otherOrigin })}</li> : null}
              {result.warnings.map((w, i) => (
                <li key={i}>{sayParseWarning(t, w as never)}</li>
              ))}
            </ul>
          }
          data-testid="wb-import-warnings"
        />
      ) : null}
    </Modal>
  );
}

function SaveModal({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const { message } = useFeedback();
  const draft = useDraft();
  const collections = useCollections().data ?? [];
  const [collectionId, setCollectionId] = useState<number | null>(draft.collectionId);
  const [name, setName] = useState(draft.name);
  const [newName, setNewName] = useState('');
  useEffect(() => {
    if (open) {
      setCollectionId(draft.collectionId ?? collections[0]?.id ?? null);
      setName(draft.name || `${draft.request.method} ${draft.request.path.split('?')[0]}`);
    }
  }, [open]);
  const save = useSaveRequest((saved) => {
    editDraft({ savedId: saved.id, collectionId: saved.collectionId, name: saved.name, dirty: false });
    void message.success(t('workbench.save.done', { name: saved.name }));
    onClose();
  });
  return (
    <Modal
      open={open}
      title={t('workbench.save.title')}
      onCancel={onClose}
      onOk={() =>
        save.mutate({
          collectionId,
          newCollection: newName.trim(),
          name: name.trim(),
          request: draft.request,
          assertions: draft.assertions,
          captures: draft.captures,
        })
      }
      okText={t('common.save')}
      cancelText={t('common.cancel')}
      okButtonProps={{
        disabled: !name.trim() || (collectionId === null && !newName.trim()),
        loading: save.isPending,
        ...({ 'data-testid': 'wb-save-ok' } as object),
      }}
      destroyOnHidden
    >
      <Space direction="vertical" style={{ width: '100%' }}>
        <Typography.Text>{t('workbench.save.collection')}</Typography.Text>
        <Select<number | null>
          value={collectionId}
          onChange={setCollectionId}
          style={{ width: '100%' }}
          options={[...collections.map((c) => ({ value: c.id, label: c.name })), { value: null, label: t('workbench.save.newCollection') }]}
          data-testid="wb-save-collection"
        />
        {collectionId === null ? (
          <Input
            value={newName}
            onChange={(e) => setNewName(e.target.value)}
            placeholder={t('workbench.save.newCollectionName')}
            data-testid="wb-save-new-collection"
          />
        ) : null}
        <Typography.Text>{t('workbench.save.name')}</Typography.Text>
        <Input value={name} onChange={(e) => setName(e.target.value)} maxLength={200} data-testid="wb-save-name" />
        {save.error ? <Alert type="error" showIcon title={describeError(t, save.error)} /> : null}
      </Space>
    </Modal>
  );
}

function CodeMenu({ input }: { input: Omit<InputOf<'raw.code'>, 'target'> | null }) {
  const { t } = useTranslation();
  const { message, modal } = useFeedback();
  const { copy, withKey } = useCopyCode(
    input,
    async ({ code }) =>
      void ((await copyText(code)) !== 'failed' ? message.success(t('workbench.code.copied')) : message.warning(t('workbench.code.copyFailed'))),
    () => void message.success(t('workbench.code.keyCopied')),
    (e) => void message.error(describeError(t, e)),
  );
  const confirmKey = (target: CodeTarget) =>
    modal.confirm({
      title: t('history.curl.keyConfirmTitle'),
      content: <p data-testid="wb-key-confirm">{t('history.curl.keyConfirmBody')}</p>,
      okText: t('history.curl.keyConfirmOk'),
      cancelText: t('common.cancel'),
      okButtonProps: { danger: true },
      onOk: () => withKey.mutate(target),
    });
  // In a browser (`callout ui`) main's clipboard is not this person's: the key is never copied there.
  const desktopOnly = consoleShell().kind === 'browser';
  const keyLabel = (c: CodeTarget) => {
    const label = t('workbench.code.copyWithKey', { language: CODE_NAMES[c] });
    return desktopOnly ? (
      <Tooltip title={describeError(t, { code: 'unavailable', params: { kind: 'browser-key-copy' } })}>
        <span data-desktop-only="true">{label}</span>
      </Tooltip>
    ) : (
      label
    );
  };
  return (
    <Dropdown
      disabled={!input}
      trigger={['click']}
      menu={{
        items: [
          ...CODE_TARGETS.map((c) => ({
            key: c,
            label: <span data-testid={`wb-code-${c}`}>{t('workbench.code.copy', { language: CODE_NAMES[c] })}</span>,
            onClick: () => copy.mutate(c),
          })),
          { type: 'divider' as const },
          ...CODE_TARGETS.map((c) => ({ key: `key-${c}`, icon: <KeyOutlined />, label: keyLabel(c), disabled: desktopOnly, onClick: () => confirmKey(c) })),
        ],
      }}
    >
      <Button icon={<CodeOutlined />} loading={copy.isPending || withKey.isPending} data-testid="wb-code">
        {t('workbench.code.button')}
      </Button>
    </Dropdown>
  );
}

function ResultPanel({ result }: { result: RawResult }) {
  const { t } = useTranslation();
  return (
    <div className="wb-result-panel" data-testid="wb-result">
      <Space wrap size={8} style={{ marginBottom: 8 }}>
        {result.assertions.length || result.outcome === 'error' ? <OutcomeTag outcome={result.outcome} /> : null}
        {result.providerCode !== null ? (
          <Typography.Text data-testid="wb-result-code">{t('provider.short', { ns: 'msg', code: result.providerCode })}</Typography.Text>
        ) : null}
      </Space>
      {result.failure ? (
        <Alert
          type={result.failure.outcome === 'unknown' ? 'warning' : 'error'}
          showIcon
          title={t(`workbench.failure.${result.failure.outcome}`)}
          description={describeReason(t, result.failure.reason)}
          style={{ marginBottom: 8 }}
        />
      ) : null}
      {result.assertions.length ? (
        <div className="wb-assertion-results" data-testid="wb-assertion-results">
          {result.assertions.map((a, i) => (
            <AssertionLine key={i} r={a} />
          ))}
        </div>
      ) : null}
      <ExchangeInspector exchange={result.exchange} />
    </div>
  );
}

export function WorkbenchScreen() {
  const { t } = useTranslation();
  const draft = useDraft();
  const profiles = useQuery(profilesQuery).data ?? [];
  const environments = useEnvironments().data ?? [];
  const [importing, setImporting] = useState(false);
  const [saving, setSaving] = useState(false);
  const [result, setResult] = useState<RawResult | null>(null);

  // The environment names its profile; otherwise the one chosen, or the first.
  const environment = environments.find((e) => e.id === draft.environmentId) ?? null;
  const profileId = environment?.profileId ?? draft.profileId ?? profiles[0]?.id ?? null;
  const profile = profiles.find((p) => p.id === profileId) ?? null;
  const scope = profileId ? { profileId, environmentId: draft.environmentId, collectionId: draft.collectionId } : null;
  const sending = useRawSend(setResult);
  const variables = usedVariables(draft);
  // A send places a real call: said before it goes, wherever the profile's dialect sends it.
  const isSend = sendsCall(profile?.dialect, draft.request.path);
  // A new request nobody touched follows the profile's dialect (its balance query).
  useEffect(() => {
    if (
      !profile ||
      !isUntouchedNew(
        draft,
        profiles.map((p) => p.dialect),
      )
    )
      return;
    const fresh = newRequestFor(profile.dialect);
    if (JSON.stringify(fresh) !== JSON.stringify(draft.request)) editDraft({ request: fresh, dirty: false });
  }, [profile, profiles, draft]);

  return (
    <section className="wb-screen" aria-labelledby="wb-title" data-testid="workbench-screen">
      <div className="wb-titlebar">
        <Typography.Title level={3} id="wb-title" style={{ margin: 0 }}>
          {t('workbench.title')}
        </Typography.Title>
        <Typography.Text type="secondary">{t('workbench.intro')}</Typography.Text>
      </div>
      <div className="wb-layout">
        <CollectionsPanel />
        <div className="wb-main">
          <Space wrap size={8} className="wb-context">
            <Typography.Text>{t('workbench.environment')}</Typography.Text>
            <Select<number | null>
              value={draft.environmentId}
              onChange={(environmentId) => editDraft({ environmentId, dirty: draft.dirty })}
              style={{ width: 200 }}
              options={[{ value: null, label: t('workbench.noEnvironment') }, ...environments.map((e) => ({ value: e.id, label: e.name }))]}
              aria-label={t('workbench.environment')}
              data-testid="wb-environment"
            />
            <Typography.Text>{t('workbench.profile')}</Typography.Text>
            <Select<string>
              value={profileId ?? undefined}
              onChange={(id) => editDraft({ profileId: id, dirty: draft.dirty })}
              disabled={environment !== null}
              style={{ width: 180 }}
              options={profiles.map((p) => ({ value: p.id, label: p.name }))}
              aria-label={t('workbench.profile')}
              data-testid="wb-profile"
            />
            {profile ? (
              <Typography.Text type="secondary" className="wb-mono wb-base">
                {profile.baseUrl}
              </Typography.Text>
            ) : null}
          </Space>
          {draft.name ? (
            <Typography.Text className="wb-request-name" data-testid="wb-request-name">
              {draft.name}
              {draft.dirty ? ` · ${t('workbench.changed')}` : ''}
            </Typography.Text>
          ) : null}
          <form
            className="wb-line"
            onSubmit={(e) => {
              e.preventDefault();
              if (scope) sending.mutate({ ...scope, request: draft.request, assertions: draft.assertions });
            }}
          >
            <MethodInput value={draft.request.method} />
            <Input
              value={draft.request.path}
              onChange={(e) => editRequest({ path: e.target.value })}
              className="wb-mono wb-path"
              spellCheck={false}
              aria-label={t('workbench.path')}
              data-testid="wb-path"
            />
            <Button type="primary" htmlType="submit" icon={<SendOutlined />} loading={sending.isPending} disabled={!scope} data-testid="wb-send">
              {t('workbench.send')}
            </Button>
            <Button icon={<SaveOutlined />} onClick={() => setSaving(true)} data-testid="wb-save">
              {t('workbench.save.button')}
            </Button>
            <Button icon={<ImportOutlined />} onClick={() => setImporting(true)} disabled={!profileId} data-testid="wb-import">
              {t('workbench.import.button')}
            </Button>
            <CodeMenu input={scope ? { ...scope, request: draft.request } : null} />
            <Button
              icon={<PlusOutlined />}
              onClick={() => {
                newDraft(newRequestFor(profile?.dialect));
                setResult(null);
              }}
              title={t('workbench.new')}
              aria-label={t('workbench.new')}
              data-testid="wb-new"
            />
          </form>
          {isSend ? <Typography.Text type="warning">{t('workbench.realCall')}</Typography.Text> : null}
          {variables.length ? (
            <Typography.Paragraph type="secondary" className="wb-hint" data-testid="wb-variables">
              {t('workbench.variablesUsed', { names: variables.join(', ') })}
            </Typography.Paragraph>
          ) : null}
          <RequestTabs draft={{ ...draft, profileId }} profileSigning={profile?.signing ?? 'off'} />
          {sending.error ? (
            <Alert
              type="error"
              showIcon
              title={t('workbench.sendFailed')}
              description={describeError(t, sending.error)}
              style={{ marginTop: 8 }}
              data-testid="wb-send-error"
            />
          ) : null}
          {result ? <ResultPanel result={result} /> : <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('workbench.nothingSent')} />}
        </div>
      </div>
      {profileId ? <ImportModal open={importing} onClose={() => setImporting(false)} profileId={profileId} /> : null}
      <SaveModal open={saving} onClose={() => setSaving(false)} />
    </section>
  );
}
