// The alert receiver: where Alertmanager, Grafana or a script posts alerts (its address with the
// secret path, whether it starts with the app), and the bearer token or basic auth a post must
// carry. A token or password typed here goes to main once and is kept in the keychain there; this
// screen only ever learns "set" or "not set" (and basic auth's user name), and clears what was typed.
import { useEffect, useState } from 'react';
import { Alert, Button, Card, Checkbox, Flex, Input, InputNumber, Switch, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { InputOf } from '../../../../common/contract';
import type { ReceiverStatus } from '../../../../common/contract/paging';
import { RECEIVER_PASSWORD_MIN, RECEIVER_TOKEN_MIN } from '../../../../common/paging/types';
import { say } from '../../app/describe';
import { ErrorView } from './ErrorView';
import { useReceiver, useSaveReceiver } from './data';

type Save = InputOf<'paging.receiverSave'>;

export function ReceiverTab() {
  const { t } = useTranslation();
  const status = useReceiver();
  const save = useSaveReceiver();
  const s = status.data;
  return (
    <div data-testid="receiver-tab">
      <ErrorView error={status.error ?? save.error} />
      <Typography.Paragraph type="secondary">{t('oncall.receiver.intro')}</Typography.Paragraph>
      {s ? (
        <Flex vertical gap={12}>
          <AddressCard status={s} saving={save.isPending} onSave={(i) => save.mutate(i)} />
          <AuthCard status={s} saving={save.isPending} onSave={(i, then) => save.mutate(i, { onSuccess: then })} />
        </Flex>
      ) : null}
    </div>
  );
}

function AddressCard({ status, saving, onSave }: { status: ReceiverStatus; saving: boolean; onSave: (i: Save) => void }) {
  const { t } = useTranslation();
  const [enabled, setEnabled] = useState(status.enabled);
  const [host, setHost] = useState(status.host);
  const [port, setPort] = useState<number | null>(status.port);
  const [newSecret, setNewSecret] = useState(false);
  useEffect(() => {
    setEnabled(status.enabled);
    setHost(status.host);
    setPort(status.port);
    setNewSecret(false);
  }, [status]);
  const valid = host.trim() !== '' && port !== null;
  return (
    <Card size="small" title={t('oncall.receiver.address')}>
      <Flex vertical gap={8}>
        <div data-testid="receiver-state">
          {status.url ? (
            <Flex gap={8} align="center" wrap>
              <Tag color="green">{t('oncall.receiver.listening')}</Tag>
              <Typography.Text copyable code data-testid="receiver-url">
                {status.url}
              </Typography.Text>
            </Flex>
          ) : (
            <Flex gap={8} align="center" wrap>
              <Tag>{t('oncall.receiver.notListening')}</Tag>
              {status.error ? <Typography.Text type="danger">{t(`oncall.receiver.error.${status.error.kind}`)}</Typography.Text> : null}
            </Flex>
          )}
        </div>
        {status.warning ? <Alert type="warning" showIcon title={say(t, [status.warning.code, status.warning.params])} data-testid="receiver-warning" /> : null}
        <Flex gap={12} align="center" wrap>
          <label>
            <Flex gap={6} align="center">
              <Switch checked={enabled} onChange={setEnabled} data-testid="receiver-enabled" />
              {t('oncall.receiver.enabled')}
            </Flex>
          </label>
          <Flex gap={6} align="center">
            <span>{t('oncall.receiver.host')}</span>
            <Input value={host} onChange={(e) => setHost(e.target.value)} style={{ width: 160 }} data-testid="receiver-host" />
          </Flex>
          <Flex gap={6} align="center">
            <span>{t('oncall.receiver.port')}</span>
            <InputNumber min={0} max={65535} precision={0} value={port} onChange={(v) => setPort(v)} style={{ width: 100 }} data-testid="receiver-port" />
          </Flex>
          <Checkbox checked={newSecret} onChange={(e) => setNewSecret(e.target.checked)} data-testid="receiver-new-secret">
            {t('oncall.receiver.newSecret')}
          </Checkbox>
          <Button
            type="primary"
            loading={saving}
            disabled={!valid}
            onClick={() => onSave({ enabled, host: host.trim(), port: port ?? 0, ...(newSecret ? { newSecret: true } : {}) })}
            data-testid="receiver-save"
          >
            {t('oncall.receiver.save')}
          </Button>
        </Flex>
        <Typography.Text type="secondary">{t('oncall.receiver.hostHelp')}</Typography.Text>
      </Flex>
    </Card>
  );
}

function AuthCard({ status, saving, onSave }: { status: ReceiverStatus; saving: boolean; onSave: (i: Save, then: () => void) => void }) {
  const { t } = useTranslation();
  const [token, setToken] = useState('');
  const [user, setUser] = useState(status.auth.basic?.username ?? '');
  const [password, setPassword] = useState('');
  // Auth changes keep the address as it is kept (not what is being typed above).
  const kept = { enabled: status.enabled, host: status.host, port: status.port };
  const tokenShort = token.trim().length > 0 && token.trim().length < RECEIVER_TOKEN_MIN;
  const passwordShort = password.length > 0 && password.length < RECEIVER_PASSWORD_MIN;
  const userBad = user.includes(':');
  const none = !status.auth.bearer && !status.auth.basic;
  return (
    <Card size="small" title={t('oncall.receiver.auth')}>
      <Flex vertical gap={12}>
        <Typography.Text type="secondary">{t('oncall.receiver.authIntro')}</Typography.Text>
        {none ? <Alert type="info" showIcon title={t('oncall.receiver.noAuth')} data-testid="receiver-no-auth" /> : null}

        <Flex vertical gap={6}>
          <Flex gap={8} align="center">
            <Typography.Text strong>{t('oncall.receiver.token')}</Typography.Text>
            <Tag color={status.auth.bearer ? 'green' : undefined} data-testid="receiver-token-state" data-set={status.auth.bearer ? 'yes' : 'no'}>
              {t(status.auth.bearer ? 'oncall.receiver.set' : 'oncall.receiver.notSet')}
            </Tag>
          </Flex>
          <Flex gap={8} align="center" wrap>
            <Input.Password
              value={token}
              onChange={(e) => setToken(e.target.value)}
              placeholder={t(status.auth.bearer ? 'oncall.receiver.tokenReplace' : 'oncall.receiver.tokenNew', { min: RECEIVER_TOKEN_MIN })}
              autoComplete="new-password"
              visibilityToggle={false}
              style={{ width: 320 }}
              status={tokenShort ? 'error' : undefined}
              data-testid="receiver-token-input"
            />
            <Button
              loading={saving}
              disabled={token.trim().length < RECEIVER_TOKEN_MIN}
              onClick={() => onSave({ ...kept, bearer: token.trim() }, () => setToken(''))}
              data-testid="receiver-token-save"
            >
              {t(status.auth.bearer ? 'oncall.receiver.replace' : 'oncall.receiver.setIt')}
            </Button>
            {status.auth.bearer ? (
              <Button danger loading={saving} onClick={() => onSave({ ...kept, bearer: null }, () => setToken(''))} data-testid="receiver-token-remove">
                {t('oncall.receiver.removeIt')}
              </Button>
            ) : null}
          </Flex>
          {tokenShort ? <Typography.Text type="danger">{t('oncall.receiver.tooShort', { min: RECEIVER_TOKEN_MIN })}</Typography.Text> : null}
        </Flex>

        <Flex vertical gap={6}>
          <Flex gap={8} align="center">
            <Typography.Text strong>{t('oncall.receiver.basic')}</Typography.Text>
            <Tag color={status.auth.basic ? 'green' : undefined} data-testid="receiver-basic-state" data-set={status.auth.basic ? 'yes' : 'no'}>
              {status.auth.basic ? t('oncall.receiver.basicSet', { user: status.auth.basic.username }) : t('oncall.receiver.notSet')}
            </Tag>
          </Flex>
          <Flex gap={8} align="center" wrap>
            <Input
              value={user}
              onChange={(e) => setUser(e.target.value)}
              placeholder={t('oncall.receiver.user')}
              autoComplete="off"
              style={{ width: 160 }}
              status={userBad ? 'error' : undefined}
              data-testid="receiver-basic-user"
            />
            <Input.Password
              value={password}
              onChange={(e) => setPassword(e.target.value)}
              placeholder={t(status.auth.basic ? 'oncall.receiver.passwordReplace' : 'oncall.receiver.passwordNew', { min: RECEIVER_PASSWORD_MIN })}
              autoComplete="new-password"
              visibilityToggle={false}
              style={{ width: 220 }}
              status={passwordShort ? 'error' : undefined}
              data-testid="receiver-basic-password"
            />
            <Button
              loading={saving}
              disabled={user.trim() === '' || userBad || password.length < RECEIVER_PASSWORD_MIN}
              onClick={() => onSave({ ...kept, basic: { username: user.trim(), password } }, () => setPassword(''))}
              data-testid="receiver-basic-save"
            >
              {t(status.auth.basic ? 'oncall.receiver.replace' : 'oncall.receiver.setIt')}
            </Button>
            {status.auth.basic ? (
              <Button danger loading={saving} onClick={() => onSave({ ...kept, basic: null }, () => setPassword(''))} data-testid="receiver-basic-remove">
                {t('oncall.receiver.removeIt')}
              </Button>
            ) : null}
          </Flex>
          {userBad ? <Typography.Text type="danger">{t('oncall.receiver.userColon')}</Typography.Text> : null}
          {passwordShort ? <Typography.Text type="danger">{t('oncall.receiver.tooShort', { min: RECEIVER_PASSWORD_MIN })}</Typography.Text> : null}
        </Flex>
        <Typography.Text type="secondary">{t('oncall.receiver.restartNote')}</Typography.Text>
      </Flex>
    </Card>
  );
}
