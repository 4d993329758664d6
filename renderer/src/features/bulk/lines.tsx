// A profile's lines (bought from the provider): each allows 20 concurrent calls and about 2,000 calls
// an hour, and the queue never goes above them. Main has no read channel for the number yet: it is
// learnt from a batch's governor (limit / 20) or from the last save, else the default of one line.
import { useEffect, useState } from 'react';
import { Button, Flex, InputNumber, Typography } from 'antd';
import { queryOptions, useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { BatchProgress } from '../../../../common/bulk-types';
import { describeError } from '../../app/api';
import { ask } from '../../app/query';
import { currentLanguage } from '../../i18n';
import { formatNumber } from './bulk-model';
import { useFeedback } from '../../app/feedback';

export const CALLS_PER_LINE = 20;
export const CALLS_PER_HOUR_PER_LINE = 2000;

const linesOf = (p: Pick<BatchProgress, 'governor'>): number | null => (p.governor.limit > 0 ? Math.max(1, Math.round(p.governor.limit / CALLS_PER_LINE)) : null);

/** Looked up once per profile (then kept for the session): the newest batch of that profile carries its governor's limits. */
const linesQuery = (profileId: string) =>
  queryOptions({
    queryKey: ['profiles.lines', profileId],
    queryFn: async (): Promise<number | null> => {
      const batch = (await ask((api) => api.bulk.list({ limit: 200 }))).find((b) => b.profile === profileId);
      return batch ? linesOf(await ask((api) => api.bulk.progress({ batchId: batch.id }))) : null;
    },
    staleTime: Infinity,
    gcTime: Infinity,
  });

/** A batch's progress says its profile's limits: remember the lines they come from. */
export function learnLines(client: QueryClient, profileId: string, p: Pick<BatchProgress, 'governor'>): void {
  const lines = linesOf(p);
  if (lines !== null) client.setQueryData(linesQuery(profileId).queryKey, lines);
}

export function LinesEditor({ profileId }: { profileId: string | null }) {
  const { t, i18n } = useTranslation();
  const lang = currentLanguage(i18n.language);
  const { message } = useFeedback();
  const client = useQueryClient();
  const lines = useQuery({ ...linesQuery(profileId ?? ''), enabled: profileId !== null }).data ?? 1;
  const [draft, setDraft] = useState<number | null>(lines);
  useEffect(() => setDraft(lines), [lines, profileId]);

  const save = useMutation({
    mutationFn: (input: { id: string; lines: number }) => ask((api) => api.profiles.setLines(input)),
    onSuccess: (saved, input) => {
      client.setQueryData(linesQuery(input.id).queryKey, saved.lines);
      void message.success(t('bulk.lines.saved', { count: saved.lines }));
    },
    onError: (e) => void message.error(describeError(t, e)),
  });

  const shown = draft ?? lines;
  return (
    <div data-testid="lines-editor" data-lines={lines}>
      <Flex gap={8} align="center" wrap>
        <InputNumber
          id="bulk-lines"
          aria-label={t('bulk.lines.label')}
          min={1}
          max={100}
          precision={0}
          value={draft}
          onChange={(v) => setDraft(typeof v === 'number' ? v : null)}
          disabled={!profileId}
          style={{ width: 96 }}
        />
        <Button
          onClick={() => profileId && draft !== null && save.mutate({ id: profileId, lines: draft })}
          loading={save.isPending}
          disabled={!profileId || draft === null || draft === lines}
          data-testid="save-lines"
        >
          {t('bulk.lines.save')}
        </Button>
        <Typography.Text type="secondary" data-testid="lines-limits">
          {t('bulk.lines.limits', { concurrent: formatNumber(lang, CALLS_PER_LINE * shown), perHour: formatNumber(lang, CALLS_PER_HOUR_PER_LINE * shown) })}
        </Typography.Text>
      </Flex>
    </div>
  );
}
