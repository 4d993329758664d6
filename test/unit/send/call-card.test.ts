// The Send screen's call card, in words: a state value the profile's dialect does not map is shown
// (never a silent "accepted"), a call only receipts tell about says it waits for one, and "Call
// again…" is never the main action for a call the provider accepted.
import { describe, expect, it } from 'vitest';
import type { TFunction } from 'i18next';
import type { MessageRecord } from '../../../common/records';
import { reason } from '../../../common/reasons';
import { followsByReceiptsOnly } from '../../../common/domain/status';
import { builtinDialect } from '../../../common/dialects';
import { receiptNote, sendAgainIsMain, unmappedNote, waitingNextText } from '../../../renderer/src/features/send/call-notes';
import { translator } from '../../e2e/page-helpers';

/** The renderer's t in a language: a key of the message catalog comes with { ns: 'msg' }. */
const tr = (lang: 'en' | 'zh-CN'): TFunction => {
  const say = translator(lang);
  return ((key: string, vars?: Record<string, unknown>) => say(vars?.ns === 'msg' ? `msg:${key}` : key, vars)) as unknown as TFunction;
};
const at = new Date(2026, 10, 27, 10, 32, 5).getTime();
const unmapped = reason('unmapped-state', { value: '200002' });
const message = (m: Partial<MessageRecord>): MessageRecord =>
  ({
    id: 1,
    mobile: '13800138008',
    content: '您好',
    units: 1,
    billedUnits: null,
    outcome: 'accepted',
    state: 'pending',
    smsid: 'S-1',
    code: 2,
    duration: null,
    attempts: null,
    reason: null,
    endedAt: null,
    createdAt: at,
    updatedAt: at,
    ...m,
  }) as MessageRecord;

const SAID = { en: 'State value "200002" not recognised — map it.', 'zh-CN': '状态值“200002”无法识别——请映射它。' } as const;
const RECEIPT = { en: "Waiting for the provider's receipt", 'zh-CN': '正在等待服务商的回执' } as const;

describe.each(['en', 'zh-CN'] as const)('the call card (%s)', (lang) => {
  const t = tr(lang);

  it('a call whose state the dialect does not map says which value, as a warning', () => {
    expect(unmappedNote(t, message({ state: 'unknown', reason: unmapped }))).toEqual([SAID[lang]]);
    // Any other reason (or none) adds nothing here.
    expect(unmappedNote(t, message({ state: 'calling', reason: null }))).toEqual([]);
    expect(unmappedNote(t, message({ reason: reason('tracking-timeout', {}) }))).toEqual([]);
  });

  it('a call followed only by receipts says it waits for the provider’s receipt', () => {
    const receiptsOnly = { receiptsOnly: true };
    expect(receiptNote(t, receiptsOnly).join(' ')).toContain(RECEIPT[lang]);
    expect(waitingNextText(t, receiptsOnly)).toContain(RECEIPT[lang]);
    // Polled calls say nothing of receipts.
    expect(receiptNote(t, { receiptsOnly: false })).toEqual([]);
    expect(waitingNextText(t, { receiptsOnly: false })).not.toContain(RECEIPT[lang]);
  });
});

describe('which profiles follow by receipts only', () => {
  it('one that follows by receipts, or whose dialect has no status query', () => {
    const spec = builtinDialect('spec')!;
    expect(followsByReceiptsOnly({ follow: 'receipts', dialect: spec })).toBe(true);
    expect(followsByReceiptsOnly({ follow: 'both', dialect: spec })).toBe(false);
    expect(followsByReceiptsOnly({ follow: 'poll', dialect: spec })).toBe(false);
    expect(followsByReceiptsOnly({ follow: 'receipts', dialect: builtinDialect('voiceid-push')! })).toBe(true);
  });
});

describe('"Call again…" is never the main action for a call the provider accepted', () => {
  it('secondary for an accepted call that ended unanswered or is no longer followed; main only for an unknown outcome', () => {
    expect(sendAgainIsMain(message({ state: 'no_answer', endedAt: at }))).toBe(false);
    expect(sendAgainIsMain(message({ state: 'unknown', endedAt: at, reason: unmapped }))).toBe(false);
    expect(sendAgainIsMain(message({ outcome: 'unknown', state: 'unknown' }))).toBe(true);
  });
});
