// A batch's results for a spreadsheet: the sheet's own columns (customer, order number...) as they
// were read, then what became of each row, in the reader's language and local time. Written by the
// same table writer as History (main/export/table.ts): CSV (UTF-8 with a BOM, CRLF, formula-safe) or XLSX.
import type { BatchItemView, BatchRecord } from '../store';
import type { Lang } from '../../common/domain/i18n-text';
import { reasonArgs } from '../../common/messages';
import { translator } from '../i18n';
import { localTime, type Table } from '../export/table';
import { rowInProgress } from '../../common/domain/batches';

/** The result columns after the sheet's own, by key (their words: the catalog's csv.result.<key>). */
export const RESULT_COLUMNS = [
  'row',
  'mobile',
  'content',
  'status',
  'state',
  'duration',
  'units',
  'code',
  'why',
  'refusedSends',
  'sent',
  'ended',
  'smsid',
  'message',
] as const;

/** Units a row cost: its call was answered; nothing for a refused send or an unanswered call; unknown while it may still ring. */
function chargedUnits(i: BatchItemView): number | null {
  if (i.status === 'accepted') {
    if (i.state === 'answered') return i.units;
    return i.endedAt !== null ? 0 : null;
  }
  return i.status === 'unknown' ? null : 0;
}

export function resultsTable(batch: BatchRecord, items: readonly BatchItemView[], lang: Lang, utcOffsetMinutes?: number): Table {
  const t = translator(lang);
  const sheet = batch.columns ?? [];
  const time = (ms: number | null) => (ms === null ? '' : localTime(ms, utcOffsetMinutes));
  // A result column never takes the name of one of the sheet's own (a sheet with a "Mobile" column):
  // two columns of one name confuse a spreadsheet's filters and whoever reads the file back.
  const own = new Set(sheet.map((c) => c.trim().toLowerCase()));
  const results = RESULT_COLUMNS.map((c) => {
    const name = t(`csv.result.${c}`) as string;
    return own.has(name.trim().toLowerCase()) ? (t('csv.result.collision', { name }) as string) : name;
  });
  return {
    header: [...sheet, ...results],
    rows: items.map((i) => {
      const own = sheet.map((_, k) => i.cells?.[k] ?? '');
      return [
        ...own,
        i.rowNumber,
        i.mobile,
        i.content,
        // A call still going on says so: the export of a batch whose calls still ring is not its result yet.
        t(rowInProgress(i) && i.status === 'accepted' ? 'csv.itemStatus.calling' : `csv.itemStatus.${i.status}`),
        i.state === null ? '' : t(`state.${i.state}`),
        i.duration,
        chargedUnits(i),
        i.code,
        i.reason ? (t(...reasonArgs(i.reason)) as string) : '',
        i.refusedSends,
        time(i.sentAt),
        time(i.endedAt),
        i.smsid ?? '',
        i.messageId,
      ];
    }),
  };
}
