// Adding or editing a profile. Field rules come from the contract's schema; problems main reports
// (issues with a path) are shown in place on their field until the user changes it.
import { useEffect, useMemo, useRef, useState } from 'react';
import { Alert, Button, Checkbox, Drawer, Form, Input, InputNumber, Radio, Select, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { SIGNING_MODES, type ProfileView } from '../../../../common/contract';
import { keyTransport, originOf, sameOrigin } from '../../../../common/domain/key-origin';
import { describeError, type IpcError } from '../../app/api';
import { useSaveProfile } from './use-profiles';
import {
  fieldOfPath,
  formValuesOf,
  inputOf,
  profileRules,
  THRESHOLD_MAX,
  TIMEOUT_LIMITS,
  type FormField,
  type ProfileFormValues,
  type ServerIssues,
} from './profile-form';
import { useFeedback } from '../../app/feedback';

export interface ProfileFormDrawerProps {
  open: boolean;
  /** The profile to edit; null to add one. */
  profile: ProfileView | null;
  onClose: () => void;
  onSaved: (profile: ProfileView, created: boolean) => void;
}

const FORMATS = [
  { value: 'json', label: 'JSON' },
  { value: 'xml', label: 'XML' },
] as const;

export function ProfileFormDrawer({ open, profile, onClose, onSaved }: ProfileFormDrawerProps) {
  const { t, i18n } = useTranslation();
  const { message } = useFeedback();
  const [form] = Form.useForm<ProfileFormValues>();
  const saving = useSaveProfile();
  const [formError, setFormError] = useState<IpcError | null>(null);
  const serverIssues = useRef<ServerIssues>({});
  const rules = useMemo(() => profileRules(t, form, () => serverIssues.current), [t, form]);
  const signing = Form.useWatch('signing', form);
  const baseUrl = Form.useWatch('baseUrl', form) ?? '';
  const builtin = profile?.builtin ?? false;
  // The key rules (common/domain/key-origin), said before saving: plain http to another machine
  // needs consent; a keyed profile moved to another origin loses its key unless it is entered again.
  const url = typeof baseUrl === 'string' ? baseUrl.trim() : '';
  const plainHttp = !builtin && originOf(url) !== null && keyTransport(url) === 'plain-http';
  const keyMoves = !builtin && !!profile?.hasKey && originOf(url) !== null && !sameOrigin(profile.baseUrl, url);

  // A fresh form each time the drawer opens.
  useEffect(() => {
    if (!open) return;
    serverIssues.current = {};
    setFormError(null);
    form.resetFields();
    form.setFieldsValue(formValuesOf(profile));
  }, [open, profile, form]);

  // Errors already on screen follow a language switch.
  useEffect(() => {
    const withErrors = form
      .getFieldsError()
      .filter((f) => f.errors.length > 0)
      .map((f) => f.name);
    if (withErrors.length) form.validateFields(withErrors).catch(() => undefined);
  }, [i18n.language, form]);

  const save = async (values: ProfileFormValues) => {
    setFormError(null);
    let error: IpcError;
    try {
      const saved = await saving.mutateAsync(inputOf(values, profile?.id));
      // A new profile is announced by the key dialog that opens next; an edit gets a toast.
      if (saved.keyRemoved) void message.warning(t('profiles.keyRemoved', { name: saved.name }));
      else if (profile) void message.success(t('profiles.saved', { name: saved.name }));
      onSaved(saved, !profile);
      return;
    } catch (e) {
      error = e as IpcError;
    }
    const issues: ServerIssues = {};
    let unplaced = false;
    for (const issue of error.issues ?? []) {
      const field = fieldOfPath(issue.path);
      if (field && !issues[field]) issues[field] = { issue, value: form.getFieldValue(field) as unknown };
      else if (!field) unplaced = true;
    }
    serverIssues.current = issues;
    const fields = Object.keys(issues) as FormField[];
    if (fields.length) {
      await form.validateFields(fields).catch(() => undefined);
      form.scrollToField(fields[0]!, { block: 'center' });
      form.focusField(fields[0]!);
    }
    if (!fields.length || unplaced) setFormError(error);
  };

  return (
    <Drawer
      open={open}
      onClose={onClose}
      size={540}
      title={profile ? t('profiles.form.editTitle', { name: profile.name }) : t('profiles.form.addTitle')}
      footer={
        <Space style={{ display: 'flex', justifyContent: 'flex-end' }}>
          <Button onClick={onClose}>{t('common.cancel')}</Button>
          <Button type="primary" loading={saving.isPending} onClick={() => form.submit()} data-testid="profile-save">
            {t('common.save')}
          </Button>
        </Space>
      }
    >
      {builtin ? <Alert type="info" showIcon title={t('profiles.form.builtinNote')} style={{ marginBottom: 16 }} /> : null}
      {formError ? (
        <Alert
          type="error"
          showIcon
          title={t('profiles.form.saveFailed')}
          description={describeError(t, formError)}
          style={{ marginBottom: 16 }}
          data-testid="profile-form-error"
        />
      ) : null}
      <Form<ProfileFormValues>
        form={form}
        name="profile"
        className="callout-form"
        layout="vertical"
        requiredMark
        validateTrigger="onBlur"
        onValuesChange={(changed: Partial<ProfileFormValues>) => {
          // Once a field shows a problem, re-check it while the user types so it clears when fixed.
          const names = (Object.keys(changed) as FormField[]).filter((n) => form.getFieldError(n).length > 0);
          if (names.length) form.validateFields(names).catch(() => undefined);
        }}
        scrollToFirstError={{ block: 'center', focus: true }}
        onFinish={(values) => void save(values)}
        initialValues={formValuesOf(profile)}
      >
        <Form.Item name="name" label={t('profiles.form.name')} rules={rules.name} required>
          <Input maxLength={60} placeholder={t('profiles.form.namePlaceholder')} autoComplete="off" autoFocus />
        </Form.Item>
        <Form.Item
          name="baseUrl"
          label={t('profiles.form.baseUrl')}
          rules={rules.baseUrl}
          required
          extra={builtin ? undefined : t('profiles.form.baseUrlHelp')}
        >
          <Input
            placeholder={t('profiles.form.baseUrlPlaceholder')}
            readOnly={builtin}
            variant={builtin ? 'filled' : 'outlined'}
            autoComplete="off"
            spellCheck={false}
            inputMode="url"
          />
        </Form.Item>
        {plainHttp ? (
          <Alert
            type="warning"
            showIcon
            data-testid="profile-plain-http"
            title={t('profiles.form.plainHttp')}
            description={
              <Form.Item name="sendKeyUnencrypted" valuePropName="checked" rules={rules.sendKeyUnencrypted} style={{ marginBottom: 0, marginTop: 8 }}>
                <Checkbox data-testid="profile-send-unencrypted">{t('profiles.form.sendKeyUnencrypted')}</Checkbox>
              </Form.Item>
            }
            style={{ marginBottom: 16 }}
          />
        ) : null}
        {keyMoves ? (
          <Alert
            type="warning"
            showIcon
            data-testid="profile-key-moves"
            title={t('profiles.form.keyMoves', { from: originOf(profile!.baseUrl) ?? profile!.baseUrl, to: originOf(url) ?? url })}
            description={
              <Form.Item name="apiKey" label={t('profiles.form.newKey')} rules={rules.apiKey} style={{ marginBottom: 0, marginTop: 8 }}>
                <Input.Password autoComplete="off" spellCheck={false} placeholder={t('profiles.form.newKeyPlaceholder')} data-testid="profile-new-key" />
              </Form.Item>
            }
            style={{ marginBottom: 16 }}
          />
        ) : null}
        <Form.Item name="apiId" label={t('profiles.form.apiId')} rules={rules.apiId} required extra={builtin ? undefined : t('profiles.form.apiIdHelp')}>
          <Input readOnly={builtin} variant={builtin ? 'filled' : 'outlined'} autoComplete="off" spellCheck={false} />
        </Form.Item>
        <Form.Item name="signing" label={t('profiles.form.signing')} rules={rules.signing} extra={signing ? t(`profiles.signingHelp.${signing}`) : undefined}>
          <Select options={SIGNING_MODES.map((m) => ({ value: m, label: t(`profiles.signing.${m}`) }))} />
        </Form.Item>
        <Form.Item name="format" label={t('profiles.form.format')} rules={rules.format}>
          <Radio.Group optionType="button" options={FORMATS.map((f) => ({ value: f.value, label: f.label }))} />
        </Form.Item>
        <Form.Item label={t('profiles.form.timeouts')} extra={t('profiles.form.timeoutsHelp')} style={{ marginBottom: 16 }} required>
          <div style={{ display: 'flex', gap: 16 }}>
            <Form.Item
              name="connectTimeoutSeconds"
              label={t('profiles.form.connectTimeout')}
              rules={rules.connectTimeoutSeconds}
              style={{ flex: 1, marginBottom: 0 }}
            >
              <InputNumber
                min={TIMEOUT_LIMITS.connect.min}
                max={TIMEOUT_LIMITS.connect.max}
                step={1}
                suffix={t('profiles.form.seconds')}
                style={{ width: '100%' }}
              />
            </Form.Item>
            <Form.Item
              name="totalTimeoutSeconds"
              label={t('profiles.form.totalTimeout')}
              rules={rules.totalTimeoutSeconds}
              dependencies={['connectTimeoutSeconds']}
              style={{ flex: 1, marginBottom: 0 }}
            >
              <InputNumber
                min={TIMEOUT_LIMITS.total.min}
                max={TIMEOUT_LIMITS.total.max}
                step={1}
                suffix={t('profiles.form.seconds')}
                style={{ width: '100%' }}
              />
            </Form.Item>
          </div>
        </Form.Item>
        <Form.Item
          name="lowBalanceThreshold"
          label={
            <span>
              {t('profiles.form.lowBalance')} <Typography.Text type="secondary">({t('common.optional')})</Typography.Text>
            </span>
          }
          rules={rules.lowBalanceThreshold}
          extra={t('profiles.form.lowBalanceHelp')}
        >
          <InputNumber
            min={0}
            max={THRESHOLD_MAX}
            precision={0}
            placeholder={t('profiles.form.lowBalancePlaceholder')}
            suffix={t('profiles.form.units')}
            style={{ width: 220 }}
          />
        </Form.Item>
        {/* Enter in a field submits. */}
        <button type="submit" hidden aria-hidden tabIndex={-1} />
      </Form>
    </Drawer>
  );
}
