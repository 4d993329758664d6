// antd's message and modal hooks with their holders: the chunk app/feedback.tsx loads after the
// first screen. Rendered inside the ConfigProvider, so toasts and confirmations follow its theme
// and language (OK, Cancel).
import { useEffect } from 'react';
import { message, Modal, type App } from 'antd';

/** What App.useApp() gave the screens (the console shows no notifications of its own). */
export type Feedback = Pick<ReturnType<typeof App.useApp>, 'message' | 'modal'>;

export default function FeedbackHolders({ onReady }: { onReady: (f: Feedback) => void }) {
  const [messageApi, messageHolder] = message.useMessage();
  const [modalApi, modalHolder] = Modal.useModal();
  useEffect(() => onReady({ message: messageApi, modal: modalApi }), [onReady, messageApi, modalApi]);
  return (
    <>
      {modalHolder}
      {messageHolder}
    </>
  );
}
