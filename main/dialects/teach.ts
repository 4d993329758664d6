// Teaching a dialect from captured replies: a reply parsed for the tree the user picks fields from,
// and the preview — every captured send reply, status reply, balance reply and receipt of the profile read
// again with the candidate dialect and with the current one, and the values seen at the state's
// place with what each now means.
import type { DialectPreview, ReplyTree, ResolveCount, SeenValue } from '../../common/contract/dialects';
import { readBalance, readReceipts, readSend, readStatus, type Dialect } from '../../common/dialects';
import type { ExchangeRecord } from '../../common/records';
import { parseBody, parsePost } from '../voice/replies';

/** The newest captured exchanges the preview reads. */
export const PREVIEW_LIMIT = 5000;

const contentType = (headers: ExchangeRecord['requestHeaders'] | null) => headers?.find(([n]) => n.toLowerCase() === 'content-type')?.[1] ?? null;

/** What the teach flow reads from an exchange: a send, status or balance reply's body, or a receipt's post. */
export function parsedOf(e: ExchangeRecord): unknown {
  if (e.operation === 'receipt') return e.requestBody === null ? null : parsePost(e.requestBody, contentType(e.requestHeaders));
  if (e.status === null || e.status < 200 || e.status > 299) return null;
  return parseBody(e.responseBody);
}

export function replyTree(e: ExchangeRecord, dialect: Dialect): ReplyTree {
  return { exchangeId: e.id, operation: e.operation, profileId: e.profile, body: parsedOf(e), dialect };
}

const zero = (): ResolveCount => ({ total: 0, resolved: 0, before: 0 });

export function previewDialect(exchanges: readonly ExchangeRecord[], candidate: Dialect, current: Dialect): DialectPreview {
  const sends = zero();
  const sendIds = new Map<string, number>();
  const status = zero();
  const balance = zero();
  const receipts = zero();
  const seen = new Map<string, SeenValue>();
  const see = (value: string | null, state: SeenValue['state'], path: string | null) => {
    if (value === null) return;
    const v = seen.get(value) ?? { value, count: 0, state, path };
    v.count++;
    seen.set(value, v);
  };
  for (const e of exchanges) {
    const parsed = parsedOf(e);
    if (parsed === null || parsed === undefined) continue;
    if (e.operation === 'send') {
      const now = readSend(candidate, parsed);
      if (now.outcome !== 'accepted') continue;
      sends.total++;
      if (now.id !== null) {
        sends.resolved++;
        sendIds.set(now.id, (sendIds.get(now.id) ?? 0) + 1);
      }
      if (readSend(current, parsed).id !== null) sends.before++;
    } else if (e.operation === 'status') {
      const now = readStatus(candidate, parsed);
      if (now.outcome !== 'accepted') continue;
      status.total++;
      if (now.state !== 'unknown') status.resolved++;
      if (readStatus(current, parsed).state !== 'unknown') status.before++;
      see(now.value, now.state, now.path);
    } else if (e.operation === 'balance') {
      const now = readBalance(candidate, parsed);
      if (now.outcome !== 'accepted') continue;
      balance.total++;
      if (now.units !== null) balance.resolved++;
      if (readBalance(current, parsed).units !== null) balance.before++;
    } else if (e.operation === 'receipt') {
      const before = readReceipts(current, parsed);
      readReceipts(candidate, parsed).forEach((r, i) => {
        receipts.total++;
        if (r.state !== 'unknown') receipts.resolved++;
        if (before[i] && before[i]!.state !== 'unknown') receipts.before++;
        see(r.value, r.state, r.path);
      });
    }
  }
  const values = [...seen.values()].sort((a, b) => b.count - a.count || a.value.localeCompare(b.value)).slice(0, 100);
  const sendIdsShared = [...sendIds.values()].reduce((n, count) => (count > 1 ? n + count : n), 0);
  return { sends, sendIdsShared, status, balance, receipts, values, exchanges: exchanges.length };
}
