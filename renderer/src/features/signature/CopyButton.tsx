// A copy button for one output. Says what happened: copied, or "selected: press Ctrl+C" when
// neither the Clipboard API nor the copy command was allowed.
import { useState, type RefObject } from 'react';
import { Button, Tooltip } from 'antd';
import { CheckOutlined, CopyOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { copyText, selectContents } from '../../app/browser-io';
import { useFeedback } from '../../app/feedback';

export interface CopyButtonProps {
  text: string;
  /** What is copied, for the button's accessible name ("Copy the signature"). */
  what: string;
  /** The element showing the text, selected when copying is refused. */
  target?: RefObject<HTMLElement | null>;
  testId?: string;
  disabled?: boolean;
}

export function CopyButton({ text, what, target, testId, disabled }: CopyButtonProps) {
  const { t } = useTranslation();
  const { message } = useFeedback();
  const [done, setDone] = useState(false);
  const label = t('signature.copy.label', { what });

  const onCopy = async () => {
    const outcome = await copyText(text);
    if (outcome === 'failed') {
      selectContents(target?.current ?? null);
      void message.warning(t('signature.copy.failed'));
      return;
    }
    setDone(true);
    window.setTimeout(() => setDone(false), 1500);
    void message.success(t('signature.copy.done', { what }));
  };

  return (
    <Tooltip title={label}>
      <Button
        size="small"
        type="text"
        icon={done ? <CheckOutlined style={{ color: '#52c41a' }} /> : <CopyOutlined />}
        aria-label={label}
        onClick={() => void onCopy()}
        disabled={disabled || text === ''}
        data-testid={testId}
      />
    </Tooltip>
  );
}
