// Per-number limits and quiet hours: how often one number may be called (a rolling minute, hour and
// day) and the local hours when nobody is called. For all profiles, or one profile's own. Each can be
// overridden for one call, with a confirmation, from the palette.
import { useEffect, useState } from 'react';
import { Alert, App, Button, Flex, Form, Input, InputNumber, Select, Skeleton, Switch, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { DialSettingsRecord } from '../../../../common/bulk-types';
import { call, describeError } from '../../app/api';
import type { DialData } from './use-dial-data';

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
  const { message } = App.useApp();
  const [scope, setScope] = useState<string>('*');
  const [record, setRecord] = useState<DialSettingsRecord | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const [form] = Form.useForm<SettingsForm>();
  const quiet = Form.useWatch('quiet', form);

  useEffect(() => {
    let live = true;
    setRecord(null);
    void call((api) => api.dial.settings({ profileId: scope === '*' ? null : scope })).then((r) => {
      if (!live) return;
      if (!r.ok) return setLoadError(describeError(t, r.error));
      setLoadError(null);
      setRecord(r.value);
      form.setFieldsValue({
        perMinute: r.value.perMinute,
        perHour: r.value.perHour,
        perDay: r.value.perDay,
        quiet: !!(r.value.quietStart && r.value.quietEnd),
        quietStart: r.value.quietStart ?? '22:00',
        quietEnd: r.value.quietEnd ?? '08:00',
      });
    });
    return () => {
      live = false;
    };
  }, [scope, form, t]);

  const save = async () => {
    const v = await form.validateFields().catch(() => null);
    if (!v) return;
    setSaving(true);
    const r = await call((api) =>
      api.dial.saveSettings({
        scope,
        perMinute: v.perMinute ?? null,
        perHour: v.perHour ?? null,
        perDay: v.perDay ?? null,
        quietStart: v.quiet ? v.quietStart : null,
        quietEnd: v.quiet ? v.quietEnd : null,
      }),
    );
    setSaving(false);
    if (r.ok) {
      setRecord(r.value);
      void message.success(t('dial.settings.saved'));
    } else void message.error(describeError(t, r.error));
  };

  const inherited = record !== null && scope !== '*' && record.scope !== scope;
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
      {loadError ? <Alert type="error" showIcon title={loadError} /> : null}
      {inherited ? <Alert type="info" showIcon title={t('dial.settings.inherited')} style={{ marginBottom: 16 }} /> : null}
      {record === null && !loadError ? <Skeleton active /> : null}
      <Form form={form} layout="vertical" requiredMark={false} name="dial-settings" hidden={record === null} className="callout-form">
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
        <Button type="primary" onClick={() => void save()} loading={saving} data-testid="settings-save">
          {scope === '*' ? t('dial.settings.saveAll') : t('dial.settings.saveProfile')}
        </Button>
      </Form>
    </div>
  );
}
