// The last look before a real phone call is placed: the number, the exact text and what it may
// cost. Confirming sends once: the screen ignores further clicks until the send has returned.
import { useRef } from 'react';
import { Alert, Descriptions, Modal, Typography } from 'antd';
import { PhoneOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { SendRequest } from './send-request';

export interface ConfirmSendModalProps {
  request: SendRequest | null;
  onConfirm: (request: SendRequest) => void;
  onCancel: () => void;
}

export function ConfirmSendModal({ request, onConfirm, onCancel }: ConfirmSendModalProps) {
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
                children: request.template ? request.template.name || t('send.field.unnamedTemplate') : t('send.confirm.noTemplate'),
              },
              {
                key: 'text',
                label: t('send.confirm.text'),
                children: (
                  <div className="send-confirm-text" data-testid="confirm-text" lang="zh-CN">
                    {request.content}
                  </div>
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
          <Typography.Paragraph type="secondary" style={{ marginTop: 12, marginBottom: 0 }}>
            {t('send.confirm.note')}
          </Typography.Paragraph>
        </div>
      ) : null}
    </Modal>
  );
}
