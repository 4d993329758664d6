// The On call screen's error box: a failed load or change, said as the app says main's errors.
import { Alert } from 'antd';
import { useTranslation } from 'react-i18next';
import { describeError, type IpcError } from '../../app/api';

/** A failed load or change, as the app shows errors: main's code said in the user's language; `detail` (a more precise reason) under it. */
export function ErrorView({ error, title, detail }: { error: IpcError | null | undefined; title?: string; detail?: React.ReactNode }) {
  const { t } = useTranslation();
  if (!error) return null;
  return (
    <Alert
      type="error"
      showIcon
      title={title ?? t('oncall.failed')}
      description={
        detail ? (
          <>
            <div>{describeError(t, error)}</div>
            {detail}
          </>
        ) : (
          describeError(t, error)
        )
      }
      style={{ marginBottom: 12 }}
      data-testid="oncall-error"
    />
  );
}
