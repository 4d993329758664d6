// The write-only API Key form. The renderer can never read a key back: it only knows whether one
// is set. A typed key leaves the form the moment it is submitted (the field is cleared before the
// call), goes to main, and is kept in the OS keychain (or, without one, in memory until quit).
// zod is configured where the contract's schemas are used (the profiles' chunk), not in the first one.
import '../../app/zod-config';
import { useState } from 'react';
import { Alert, Button, Form, Input, Modal, Space, Typography } from 'antd';
import { DeleteOutlined, LockOutlined, SwapOutlined, WalletOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { contract, type ProfileView } from '../../../../common/contract';
import { describeError, describeIssue, type IpcError } from '../../app/api';
import { useDeleteKey, useSetKey } from './use-profiles';
import { useAppInfo } from '../../app/query';
import { BalanceResult, useBalanceCheck } from './balance';
import { keyRefusal, keyStanding } from './key-standing';
import { useFeedback } from '../../app/feedback';

/**
 * A set key, as the provider last judged it (main's one record, the same the profile list shows):
 * never a green "set" while the provider refuses it.
 */
function KeyStateAlert({ profile }: { profile: ProfileView }) {
  const { t } = useTranslation();
  const standing = keyStanding(profile);
  const hint = profile.builtin ? t('key.builtinNote') : t('key.isSetHint');
  if (standing === 'rejected') {
    const refusal = keyRefusal(profile);
    return (
      <Alert
        type="error"
        showIcon
        title={refusal === 'signature' ? t('key.signatureRejected') : refusal === 'unsigned' ? t('key.unsignedRejected') : t('key.rejected')}
        description={
          refusal === 'signature'
            ? t('provider.signature.action', { ns: 'msg' })
            : refusal === 'unsigned'
              ? t('provider.signature.action', { ns: 'msg', context: 'unsigned' })
              : t('key.rejectedHint')
        }
        data-testid="key-state"
        data-has-key="true"
        data-standing={standing}
      />
    );
  }
  return (
    <Alert
      type={standing === 'works' ? 'success' : 'info'}
      showIcon
      title={standing === 'works' ? t('key.works') : t('key.isSet')}
      description={hint}
      data-testid="key-state"
      data-has-key="true"
      data-standing={standing}
    />
  );
}

export interface KeyModalProps {
  /** The profile whose key is managed; null when closed. Always the latest view from the list. */
  profile: ProfileView | null;
  /** 'new': opened right after the profile was created, to offer setting its key at once. */
  intro: 'new' | null;
  onClose: () => void;
  onChanged: (profile: ProfileView) => void;
}

const apiKeySchema = contract.channels['profiles.setKey'].input.shape.apiKey;

interface KeyFormValues {
  apiKey?: string;
}

/**
 * Each opening is a fresh dialog for its profile: its state (replacing, the typed key, an error) starts
 * empty on the first render. (Resetting it in an effect after opening undid a quick first click, such
 * as "Replace", on a busy machine.)
 */
export function KeyModal(props: KeyModalProps) {
  return <KeyDialog key={props.profile?.id ?? ''} {...props} />;
}

function KeyDialog({ profile, intro, onClose, onChanged }: KeyModalProps) {
  const { t } = useTranslation();
  const { message, modal } = useFeedback();
  const info = useAppInfo();
  const [form] = Form.useForm<KeyFormValues>();
  const [replacing, setReplacing] = useState(false);
  // Plain state, not a mutation: a mutation keeps its variables (here the key) in its state.
  const [busy, setBusy] = useState<'save' | 'delete' | null>(null);
  const [error, setError] = useState<{ op: 'save' | 'delete'; error: IpcError } | null>(null);
  const setKey = useSetKey();
  const deleteKey = useDeleteKey();
  const { check, run: runCheck, reset: resetCheck } = useBalanceCheck(profile?.id ?? null);

  if (!profile) return null;
  const builtin = profile.builtin;
  const editing = !builtin && (!profile.hasKey || replacing);
  const session = info?.secretStore.kind === 'session';

  const save = async () => {
    setError(null);
    // Take the key out of the form at once: from here on it lives only in this call.
    const typed = form.getFieldValue('apiKey') as unknown;
    form.resetFields();
    const apiKey = typeof typed === 'string' ? typed.trim() : '';
    const checked = apiKeySchema.safeParse(apiKey);
    if (!checked.success) {
      form.setFields([{ name: 'apiKey', errors: [describeIssue(t, checked.error.issues[0]?.message ?? '')] }]);
      return;
    }
    setBusy('save');
    resetCheck();
    let saved: ProfileView;
    try {
      saved = await setKey(profile.id, apiKey);
    } catch (e) {
      const error = e as IpcError;
      setBusy(null);
      const issue = error.issues?.find((i) => i.path === 'apiKey');
      if (issue) form.setFields([{ name: 'apiKey', errors: [describeIssue(t, issue.message)] }]);
      else setError({ op: 'save', error });
      return;
    }
    setBusy(null);
    setReplacing(false);
    onChanged(saved); // the dialog now says "A key is set": no toast on top of it
    await runCheck();
  };

  const confirmDelete = () => {
    modal.confirm({
      title: t('key.confirmDelete.title', { name: profile.name }),
      content: t('key.confirmDelete.body'),
      okText: t('key.confirmDelete.ok'),
      okButtonProps: { danger: true },
      cancelText: t('common.cancel'),
      onOk: async () => {
        setBusy('delete');
        setError(null);
        resetCheck();
        let changed: ProfileView;
        try {
          changed = await deleteKey.mutateAsync(profile.id);
        } catch (e) {
          setBusy(null);
          setError({ op: 'delete', error: e as IpcError });
          return;
        }
        setBusy(null);
        onChanged(changed); // the dialog now says "No key is set"
        void message.success(t('key.deleted'));
      },
    });
  };

  const closeLabel = intro === 'new' && !profile.hasKey ? t('common.later') : t('common.close');

  return (
    <Modal
      open
      onCancel={onClose}
      title={intro === 'new' && !profile.hasKey ? t('key.newProfileTitle', { name: profile.name }) : t('key.title', { name: profile.name })}
      width={560}
      footer={<Button onClick={onClose}>{closeLabel}</Button>}
      data-testid="key-modal"
    >
      <div data-testid="key-modal-body">
        {intro === 'new' && !profile.hasKey ? <Typography.Paragraph>{t('key.newProfileIntro')}</Typography.Paragraph> : null}

        {profile.hasKey ? (
          <KeyStateAlert profile={profile} />
        ) : (
          <Alert
            type="warning"
            showIcon
            title={t('key.notSet')}
            description={builtin ? t('key.builtinMissing') : t('key.notSetHint')}
            data-testid="key-state"
            data-has-key="false"
          />
        )}

        {error ? (
          <Alert
            type="error"
            showIcon
            title={error.op === 'save' ? t('key.saveFailed') : t('key.deleteFailed')}
            description={describeError(t, error.error)}
            style={{ marginTop: 12 }}
          />
        ) : null}

        {editing ? (
          <Form<KeyFormValues> form={form} layout="vertical" style={{ marginTop: 16 }} onFinish={() => void save()} requiredMark={false}>
            <Form.Item name="apiKey" label={t('key.label')} style={{ marginBottom: 12 }}>
              <Input.Password
                autoFocus
                placeholder={t('key.placeholder')}
                autoComplete="new-password"
                spellCheck={false}
                data-testid="api-key-input"
                onChange={() => form.getFieldError('apiKey').length && form.setFields([{ name: 'apiKey', errors: [] }])}
              />
            </Form.Item>
            <Space wrap>
              <Button type="primary" htmlType="submit" loading={busy === 'save'} icon={<LockOutlined />} data-testid="api-key-save">
                {t('key.save')}
              </Button>
              {profile.hasKey ? <Button onClick={() => (form.resetFields(), setReplacing(false))}>{t('key.keepCurrent')}</Button> : null}
            </Space>
          </Form>
        ) : (
          <Space wrap style={{ marginTop: 16 }}>
            {builtin ? null : (
              <>
                <Button icon={<SwapOutlined />} onClick={() => setReplacing(true)} data-testid="api-key-replace">
                  {t('key.replace')}
                </Button>
                <Button danger icon={<DeleteOutlined />} loading={busy === 'delete'} onClick={confirmDelete} data-testid="api-key-delete">
                  {t('key.delete')}
                </Button>
              </>
            )}
            {profile.hasKey ? (
              <Button icon={<WalletOutlined />} onClick={() => void runCheck()} loading={check.state === 'checking'} data-testid="api-key-check">
                {check.state === 'done' ? t('balance.checkAgain') : t('balance.check')}
              </Button>
            ) : null}
          </Space>
        )}

        <div style={{ marginTop: check.state === 'idle' ? 0 : 16 }}>
          <BalanceResult check={check} profile={profile} />
        </div>

        <Typography.Paragraph type="secondary" style={{ marginTop: 16, marginBottom: 0, fontSize: 13 }} data-testid="key-storage">
          <LockOutlined aria-hidden style={{ marginInlineEnd: 6 }} />
          {session ? t('key.storedSession') : t('key.storedKeychain')}
        </Typography.Paragraph>
      </div>
    </Modal>
  );
}
