// Per-number limits and quiet hours: how often one number may be called (a rolling minute, hour and
// day) and the local hours when nobody is called. For all profiles, or one profile's own. Each can be
// overridden for one call, with a confirmation, from the palette.
import { useEffect, useState } from 'react';
import { Alert, Button, Flex, Form, Input, InputNumber, Select, Skeleton, Switch, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { describeError } from '../../app/api';
import { useDialSettings, useSaveDialSettings, type DialData } from './use-dial-data';
import { useFeedback } from '../../app/feedback';

const HHMM = /^([01]\d|2[0-3]):[0-5]\d$/;

interface SettingsForm {
  perMinute: number | null;
  perHour: number | null;
  perDay: number | null;
  quiet: boolean;
  quietStart: string;
  quietEnd: string;
}

export function SettingsTab({ data }: { data: DialData }) {
  const { t } = useTranslation();
  const { message } = useFeedback();
  const [scope, setScope] = useState<string>('*');
  const { data: record, error: loadError } = useDialSettings(scope);
  const saving = useSaveDialSettings();
  const [form] = Form.useForm<SettingsForm>();
  const quiet = Form.useWatch('quiet', form);

  // The form shows the settings as loaded for the scope chosen.
  useEffect(() => {
    if (!record) return;
    form.setFieldsValue({
      perMinute: record.perMinute,
      perHour: record.perHour,
      perDay: record.perDay,
      quiet: !!(record.quietStart && record.quietEnd),
      quietStart: record.quietStart ?? '22:00',
      quietEnd: record.quietEnd ?? '08:00',
    });
  }, [record, form]);

  const save = async () => {
    const v = await form.validateFields().catch(() => null);
    if (!v) return;
    saving.mutate(
      {
        scope,
        perMinute: v.perMinute ?? null,
        perHour: v.perHour ?? null,
        perDay: v.perDay ?? null,
        quietStart: v.quiet ? v.quietStart : null,
        quietEnd: v.quiet ? v.quietEnd : null,
      },
      { onSuccess: () => void message.success(t('dial.settings.saved')), onError: (e) => void message.error(describeError(t, e)) },
    );
  };

  const inherited = record !== undefined && scope !== '*' && record.scope !== scope;
  const limitField = (name: 'perMinute' | 'perHour' | 'perDay', max: number) => (
    <Form.Item name={name} label={t(`dial.settings.${name}`)} extra={t('dial.settings.emptyNoLimit')} style={{ flex: '1 1 180px' }}>
      <InputNumber min={1} max={max} precision={0} style={{ width: '100%' }} placeholder={t('dial.settings.noLimit')} data-testid={`settings-${name}`} />
    </Form.Item>
  );
  const timeRule = { pattern: HHMM, message: t('dial.settings.timeInvalid') };

  return (
    <div data-testid="settings-tab" style={{ maxWidth: 760 }}>
      <Typography.Paragraph type="secondary">{t('dial.settings.intro')}</Typography.Paragraph>
      <Flex gap={8} align="center" style={{ marginBottom: 16 }}>
        <label htmlFor="dial-settings-scope">{t('dial.settings.scope')}</label>
        <Select
          id="dial-settings-scope"
          value={scope}
          onChange={setScope}
          style={{ minWidth: 240 }}
          options={[{ value: '*', label: t('dial.settings.allProfiles') }, ...data.profiles.map((p) => ({ value: p.id, label: p.name }))]}
        />
      </Flex>
      {loadError ? <Alert type="error" showIcon title={describeError(t, loadError)} /> : null}
      {inherited ? <Alert type="info" showIcon title={t('dial.settings.inherited')} style={{ marginBottom: 16 }} /> : null}
      {record === undefined && !loadError ? <Skeleton active /> : null}
      <Form form={form} layout="vertical" requiredMark={false} name="dial-settings" hidden={record === undefined} className="callout-form">
        <Flex gap={16} wrap>
          {limitField('perMinute', 100)}
          {limitField('perHour', 1000)}
          {limitField('perDay', 10_000)}
        </Flex>
        <Form.Item name="quiet" valuePropName="checked" label={t('dial.settings.quiet')} extra={t('dial.settings.quietHelp')}>
          <Switch data-testid="settings-quiet" />
        </Form.Item>
        {quiet ? (
          <Flex gap={16}>
            <Form.Item name="quietStart" label={t('dial.settings.quietStart')} rules={[timeRule]} style={{ width: 160 }}>
              <Input placeholder="22:00" data-testid="settings-quiet-start" />
            </Form.Item>
            <Form.Item name="quietEnd" label={t('dial.settings.quietEnd')} rules={[timeRule]} style={{ width: 160 }}>
              <Input placeholder="08:00" data-testid="settings-quiet-end" />
            </Form.Item>
          </Flex>
        ) : null}
        <Button type="primary" onClick={() => void save()} loading={saving.isPending} data-testid="settings-save">
          {scope === '*' ? t('dial.settings.saveAll') : t('dial.settings.saveProfile')}
        </Button>
      </Form>
    </div>
  );
}
