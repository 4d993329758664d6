// Results of a batch as CSV: UTF-8 with a byte-order mark (Excel opens it as UTF-8), CRLF lines, and
// every cell that a spreadsheet would run as a formula (= + - @ tab CR at the start) prefixed with '.
import Papa from 'papaparse';
import type { BatchItemView } from '../store/batch-repository';
import { reasonArgs } from '../../common/messages';
import { translator } from '../i18n';

export const RESULT_COLUMNS = ['row', 'mobile', 'content', 'status', 'call_state', 'duration_s', 'code', 'error', 'message_id', 'smsid', 'sent_at', 'call_ended_at'] as const;

const iso = (ms: number | null) => (ms === null ? '' : new Date(ms).toISOString());

export function resultsCsv(items: readonly BatchItemView[]): string {
  const data = items.map((i) => [
    String(i.rowNumber),
    i.mobile,
    i.content,
    i.status,
    i.state ?? '',
    i.duration === null ? '' : String(i.duration),
    i.code === null ? '' : String(i.code),
    i.reason ? (translator('en')(...reasonArgs(i.reason)) as string) : '',
    i.messageId === null ? '' : String(i.messageId),
    i.smsid ?? '',
    iso(i.sentAt),
    iso(i.endedAt),
  ]);
  return `\ufeff${Papa.unparse({ fields: [...RESULT_COLUMNS], data }, { escapeFormulae: true, newline: '\r\n', quotes: false })}\r\n`;
}
