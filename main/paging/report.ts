// An incident in words, for people: a one-line summary to paste into a chat ("10:32 王工 未接×3 →
// 10:36 李雷 忙 → 10:38 张三 接听") and a CSV of every call (the conventions of every table Callout
// writes: main/export/table.ts), both in the reader's language.
import type { Lang } from '../../common/domain/i18n-text';
import type { IncidentCallRecord, IncidentDetail } from '../../common/paging/records';
import { localTime, tableCsv } from '../export/table';
import { translator } from '../i18n';

/** "HH:MM" of `ms` in an IANA time zone. */
function hhmm(ms: number, timeZone: string): string {
  return new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(new Date(ms));
}

/**
 * The calls of an incident in one line: each run of calls to one person that ended the same way is
 * one entry (its first call's time, the person, the result, ×N when more than one). A call on
 * resolution says so ("10:50 张三 恢复通知 接听").
 */
export function incidentSummary(detail: Pick<IncidentDetail, 'calls'>, lang: Lang, timeZone = 'Asia/Shanghai'): string {
  const t = translator(lang);
  const runs: { call: IncidentCallRecord; count: number }[] = [];
  for (const call of detail.calls) {
    const last = runs.at(-1);
    if (last && last.call.mobile === call.mobile && last.call.result === call.result && last.call.resolution === call.resolution) last.count++;
    else runs.push({ call, count: 1 });
  }
  return runs
    .map(({ call, count }) => {
      const result = t(`paging.result.${call.result ?? 'unknown'}`);
      const times = count > 1 ? t('paging.times', { count }) : '';
      const what = call.resolution ? ` ${t('paging.resolutionCall')}` : '';
      return `${hhmm(call.startedAt, timeZone)} ${call.name ?? call.mobile}${what} ${result}${times}`;
    })
    .join(' → ');
}

const COLUMNS = ['time', 'step', 'attempt', 'name', 'mobile', 'result', 'state', 'duration', 'smsid', 'message', 'late', 'limit'] as const;

/** Every call of the incident as CSV text (BOM first, headers in `lang`, local times). */
export function incidentCsv(detail: IncidentDetail, lang: Lang, utcOffsetMinutes?: number): string {
  const t = translator(lang);
  return tableCsv({
    header: COLUMNS.map((c) => t(`paging.csv.${c}`)),
    rows: detail.calls.map((c) => [
      localTime(c.startedAt, utcOffsetMinutes),
      c.resolution ? t('paging.resolutionCall') : detail.incident.policyId === null ? c.stepIndex + 1 : `${c.round + 1}.${c.stepIndex + 1}`,
      c.attempt,
      c.name,
      c.mobile,
      c.result === null ? '' : t(`paging.result.${c.result}`),
      c.state === null ? '' : t(`state.${c.state}`),
      c.duration,
      c.smsid,
      c.messageId,
      Math.round(Math.max(0, c.startedAt - c.dueAt) / 1000),
      c.refusal ?? '',
    ]),
  });
}
