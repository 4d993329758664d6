// A profile's lines (bought from the provider): each allows 20 concurrent calls and about 2,000 calls
// an hour, and Callout starts a call only while under them. And whether a line is lent while its call
// waits for the provider's redial (the waiting call holds no line): on by default, off for a provider
// that counts waiting calls against the lines.
import { useEffect, useState } from 'react';
import { Alert, Button, Flex, InputNumber, Switch, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { CALLS_PER_HOUR_PER_LINE, CALLS_PER_LINE } from '../../../../common/domain/lines';
import { describeError } from '../../app/api';
import { currentLanguage } from '../../i18n';
import { formatNumber } from './bulk-model';
import { formatClock } from '../dial/dial-model';
import { useFeedback } from '../../app/feedback';
import { useProfileLines } from './use-bulk-data';

export function LinesEditor({ profileId }: { profileId: string | null }) {
  const { t, i18n } = useTranslation();
  const lang = currentLanguage(i18n.language);
  const { message } = useFeedback();
  const { read, save } = useProfileLines(
    profileId,
    (saved, input) => {
      if (input.lines !== undefined) void message.success(t('bulk.lines.saved', { count: saved.lines }));
      else void message.success(t(saved.lendLines ? 'bulk.lines.lendOn' : 'bulk.lines.lendOff'));
    },
    (e) => void message.error(describeError(t, e)),
  );
  const current = read.data;
  const lines = current?.lines ?? 1;
  // Nothing to change before main has said how the profile is set.
  const ready = profileId !== null && current !== undefined;
  const [draft, setDraft] = useState<number | null>(lines);
  useEffect(() => setDraft(lines), [lines, profileId]);

  const saving = save.isPending ? save.variables : undefined;

  const shown = draft ?? lines;
  if (profileId !== null && read.isError && !current) {
    return (
      <Alert
        type="error"
        showIcon
        title={describeError(t, read.error)}
        action={<Button onClick={() => void read.refetch()}>{t('common.retry')}</Button>}
        data-testid="lines-error"
      />
    );
  }
  // On: the profile is set to lend and lending was not stopped by a refusal.
  const lending = current ? current.lendLines && current.lendingStoppedAt === null : true;
  return (
    <div data-testid="lines-editor" data-lines={lines} data-lend={current ? String(lending) : undefined}>
      <Flex gap={8} align="center" wrap>
        <InputNumber
          id="bulk-lines"
          aria-label={t('bulk.lines.label')}
          min={1}
          max={100}
          precision={0}
          value={draft}
          onChange={(v) => setDraft(typeof v === 'number' ? v : null)}
          disabled={!ready}
          style={{ width: 96 }}
        />
        <Button
          onClick={() => profileId && draft !== null && save.mutate({ id: profileId, lines: draft })}
          loading={saving?.lines !== undefined}
          disabled={!ready || draft === null || draft === lines}
          data-testid="save-lines"
        >
          {t('bulk.lines.save')}
        </Button>
        <Typography.Text type="secondary" data-testid="lines-limits">
          {ready
            ? t('bulk.lines.limits', { concurrent: formatNumber(lang, CALLS_PER_LINE * shown), perHour: formatNumber(lang, CALLS_PER_HOUR_PER_LINE * shown) })
            : null}
        </Typography.Text>
      </Flex>
      <Flex gap={8} align="flex-start" className="bulk-lend">
        <Switch
          id="bulk-lend"
          size="small"
          checked={lending}
          loading={saving?.lendLines !== undefined}
          disabled={!ready}
          onChange={(on) => profileId && save.mutate({ id: profileId, lendLines: on })}
          aria-describedby="bulk-lend-help"
          data-testid="lend-lines"
        />
        <div>
          <label htmlFor="bulk-lend">{t('bulk.lines.lend')}</label>
          <Typography.Text type="secondary" id="bulk-lend-help" className="bulk-lend-help">
            {t('bulk.lines.lendHelp')}
          </Typography.Text>
          {current?.lendLines && current.lendingStoppedAt !== null ? (
            <Typography.Text type="warning" className="bulk-lend-help" data-testid="lend-stopped">
              {t('bulk.lines.lendStopped', { time: formatClock(lang, current.lendingStoppedAt) })}
            </Typography.Text>
          ) : null}
        </div>
      </Flex>
    </div>
  );
}
