// A profile's lines (bought from the provider): each allows 20 concurrent calls and about 2,000 calls
// an hour, and the queue never goes above them. Main has no read channel for the number yet: it is
// learnt from a batch's governor (limit / 20) or from the last save, else the default of one line.
import { useEffect, useState, useSyncExternalStore } from 'react';
import { App, Button, Flex, InputNumber, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { BatchProgress } from '../../../../common/bulk-types';
import { call, describeError } from '../../app/api';
import { currentLanguage } from '../../i18n';
import { formatNumber } from './bulk-model';

export const CALLS_PER_LINE = 20;
export const CALLS_PER_HOUR_PER_LINE = 2000;

const known = new Map<string, number>();
const listeners = new Set<() => void>();
let version = 0;

function learn(profileId: string, lines: number): void {
  if (known.get(profileId) === lines) return;
  known.set(profileId, lines);
  version++;
  for (const l of listeners) l();
}

/** A batch's progress says its profile's limits: remember the lines they come from. */
export function learnLines(profileId: string, p: Pick<BatchProgress, 'governor'>): void {
  if (p.governor.limit > 0) learn(profileId, Math.max(1, Math.round(p.governor.limit / CALLS_PER_LINE)));
}

function useKnownLines(profileId: string | null): number | null {
  useSyncExternalStore(
    (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    () => version,
  );
  return profileId ? (known.get(profileId) ?? null) : null;
}

/** Looks the lines up once per profile: the newest batch of that profile carries its governor's limits. */
function useLookUpLines(profileId: string | null): void {
  useEffect(() => {
    if (!profileId || known.has(profileId)) return;
    let live = true;
    void call((api) => api.bulk.list({ limit: 200 })).then(async (r) => {
      const batch = r.ok ? r.value.find((b) => b.profile === profileId) : undefined;
      if (!batch || !live) return;
      const p = await call((api) => api.bulk.progress({ batchId: batch.id }));
      if (p.ok && live) learnLines(profileId, p.value);
    });
    return () => {
      live = false;
    };
  }, [profileId]);
}

export function LinesEditor({ profileId }: { profileId: string | null }) {
  const { t, i18n } = useTranslation();
  const lang = currentLanguage(i18n.language);
  const { message } = App.useApp();
  useLookUpLines(profileId);
  const lines = useKnownLines(profileId) ?? 1;
  const [draft, setDraft] = useState<number | null>(lines);
  const [saving, setSaving] = useState(false);
  useEffect(() => setDraft(lines), [lines, profileId]);

  const save = async () => {
    if (!profileId || draft === null) return;
    setSaving(true);
    const r = await call((api) => api.profiles.setLines({ id: profileId, lines: draft }));
    setSaving(false);
    if (r.ok) {
      learn(profileId, r.value.lines);
      void message.success(t('bulk.lines.saved', { count: r.value.lines }));
    } else void message.error(describeError(t, r.error));
  };

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
        <Button onClick={() => void save()} loading={saving} disabled={!profileId || draft === null || draft === lines} data-testid="save-lines">
          {t('bulk.lines.save')}
        </Button>
        <Typography.Text type="secondary" data-testid="lines-limits">
          {t('bulk.lines.limits', { concurrent: formatNumber(lang, CALLS_PER_LINE * shown), perHour: formatNumber(lang, CALLS_PER_HOUR_PER_LINE * shown) })}
        </Typography.Text>
      </Flex>
    </div>
  );
}
