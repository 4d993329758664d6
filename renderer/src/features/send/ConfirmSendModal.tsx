// The last look before a real phone call is placed: the number, the exact text and what it may
// cost. Confirming sends once: the screen ignores further clicks until the send has returned.
import { useRef, useState } from 'react';
import { Alert, Button, Descriptions, Modal, Space, Typography } from 'antd';
import Input from 'antd/es/input/Input';
import { PhoneOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { normalizeMobile } from '../../../../common/domain/mobile';
import { HearItButton } from '../../app/HearItButton';
import { savedOwnMobile, saveOwnMobile } from './own-number';
import type { SendRequest } from './send-request';

/** How a "call me first" test call went: placed, or why not (a text already said). */
export type TestCallResult = { ok: true } | { ok: false; reason: string };

export interface ConfirmSendModalProps {
  request: SendRequest | null;
  onConfirm: (request: SendRequest) => void;
  onCancel: () => void;
  /** "Call me first": the same text to the person's own number, through the ordinary send. */
  onCallMeFirst: (request: SendRequest, ownMobile: string) => Promise<TestCallResult>;
}

export function ConfirmSendModal({ request, onConfirm, onCancel, onCallMeFirst }: ConfirmSendModalProps) {
  const { t } = useTranslation();
  const frame = useRef<HTMLDivElement>(null);
  return (
    <Modal
      open={request !== null}
      // The focus starts on the primary action ("Call"), as in every confirmation: Enter confirms,
      // Escape (or Tab to "Cancel") backs out. Not on the × in the corner.
      afterOpenChange={(open) => {
        if (open) frame.current?.querySelector<HTMLButtonElement>('[data-testid="confirm-send"]')?.focus();
      }}
      modalRender={(node) => <div ref={frame}>{node}</div>}
      title={request ? t('send.confirm.title', { mobile: request.mobile }) : null}
      okText={t('send.confirm.ok')}
      cancelText={t('send.confirm.cancel')}
      okButtonProps={{ icon: <PhoneOutlined />, 'data-testid': 'confirm-send' }}
      cancelButtonProps={{ 'data-testid': 'confirm-cancel' }}
      onOk={() => request && onConfirm(request)}
      onCancel={onCancel}
      width={560}
      destroyOnHidden
      data-testid="confirm-modal"
    >
      {request ? (
        <div data-testid="confirm-body">
          <Descriptions
            column={1}
            size="small"
            bordered
            styles={{ label: { width: 120 } }}
            items={[
              {
                key: 'mobile',
                label: t('send.confirm.mobile'),
                children: (
                  <Typography.Text strong className="send-confirm-mobile" data-testid="confirm-mobile">
                    {request.mobile}
                  </Typography.Text>
                ),
              },
              { key: 'profile', label: t('send.confirm.profile'), children: request.profile.name },
              {
                key: 'template',
                label: t('send.confirm.template'),
                children: request.template ? request.template.name || t('send.field.unnamedTemplate') : t('templates.none', { ns: 'msg' }),
              },
              {
                key: 'text',
                label: t('send.confirm.text'),
                children: (
                  <>
                    <div className="send-confirm-text" data-testid="confirm-text" lang="zh-CN">
                      {request.content}
                    </div>
                    <HearItButton text={request.content} size="small" data-testid="confirm-hear" />
                  </>
                ),
              },
              {
                key: 'units',
                label: t('send.confirm.cost'),
                children: (
                  <span data-testid="confirm-units">
                    {t('send.confirm.costValue', { length: request.length, units: t('send.units', { count: request.units }) })}
                  </span>
                ),
              },
            ]}
          />
          {request.freeMatch && request.freeMatch.kind !== 'approved' ? (
            <Alert type="warning" showIcon title={t('send.confirm.noMatchWarning')} className="send-note" style={{ marginTop: 12 }} />
          ) : null}
          <CallMeFirst request={request} onCallMeFirst={onCallMeFirst} />
          <Typography.Paragraph type="secondary" style={{ marginTop: 12, marginBottom: 0 }}>
            {t('send.confirm.note')}
          </Typography.Paragraph>
        </div>
      ) : null}
    </Modal>
  );
}

/**
 * "Call me first": the person's own number (typed by them, remembered in this window's storage)
 * gets the same text through the ordinary send (a real send, charged if answered, in History);
 * the confirmation stays open and says the test call was placed.
 */
function CallMeFirst({ request, onCallMeFirst }: { request: SendRequest; onCallMeFirst: ConfirmSendModalProps['onCallMeFirst'] }) {
  const { t } = useTranslation();
  const [own, setOwn] = useState(savedOwnMobile);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [placed, setPlaced] = useState<string | null>(null);
  const normalized = normalizeMobile(own);

  const callMe = async () => {
    if (busy) return;
    if (!normalized.ok) {
      setError(t(`mobile.${normalized.error}`, { ns: 'msg' }));
      return;
    }
    if (normalized.mobile === request.mobile) {
      setError(t('send.confirm.callMe.sameNumber'));
      return;
    }
    setError(null);
    setBusy(true);
    saveOwnMobile(normalized.mobile);
    const r = await onCallMeFirst(request, normalized.mobile);
    setBusy(false);
    if (r.ok) setPlaced(normalized.mobile);
    else setError(t('send.confirm.callMe.failed', { own: normalized.mobile, reason: r.reason }));
  };

  return (
    <section className="send-call-me" aria-label={t('send.confirm.callMe.title')} data-testid="call-me-first" style={{ marginTop: 12 }}>
      <Typography.Text strong>{t('send.confirm.callMe.title')}</Typography.Text>
      <Typography.Paragraph type="secondary" style={{ marginBottom: 8 }}>
        {t('send.confirm.callMe.explain', { mobile: request.mobile })}
      </Typography.Paragraph>
      <Space.Compact style={{ maxWidth: 380, width: '100%' }}>
        <Input
          value={own}
          onChange={(e) => {
            setOwn(e.target.value);
            setError(null);
          }}
          onPressEnter={(e) => {
            // Enter here is for this field, not the confirmation's "Call now".
            e.preventDefault();
            e.stopPropagation();
            void callMe();
          }}
          aria-label={t('send.confirm.callMe.ownMobile')}
          placeholder={t('send.confirm.callMe.ownPlaceholder')}
          status={error ? 'error' : undefined}
          data-testid="own-mobile"
        />
        <Button icon={<PhoneOutlined />} loading={busy} onClick={() => void callMe()} data-testid="call-me-button">
          {t('send.confirm.callMe.button')}
        </Button>
      </Space.Compact>
      {error ? (
        <Typography.Paragraph type="danger" role="alert" style={{ margin: '4px 0 0' }} data-testid="call-me-error">
          {error}
        </Typography.Paragraph>
      ) : null}
      {placed ? (
        <Alert
          type="success"
          showIcon
          role="status"
          style={{ marginTop: 8 }}
          data-testid="call-me-placed"
          title={t('send.confirm.callMe.placed', { own: placed, mobile: request.mobile })}
        />
      ) : null}
    </section>
  );
}
