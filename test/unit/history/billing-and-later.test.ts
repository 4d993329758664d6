// What a message cost, said the same way in History's list and its detail (one rule, common/domain),
// and a later send of the same text to the same number, in words.
import { describe, expect, it } from 'vitest';
import type { TFunction } from 'i18next';
import { billingOf } from '../../../common/domain/outcomes';
import type { MessageRecord } from '../../../common/records';
import { billingWords, laterSendWords } from '../../../renderer/src/features/history/history-model';
import { translator } from '../../e2e/page-helpers';

/** The renderer's t in a language: a key of the message catalog comes with { ns: 'msg' }. */
const tr = (lang: 'en' | 'zh-CN'): TFunction => {
  const say = translator(lang);
  return ((key: string, vars?: Record<string, unknown>) => say(vars?.ns === 'msg' ? `msg:${key}` : key, vars)) as unknown as TFunction;
};
const at = new Date(2026, 10, 27, 10, 32, 5).getTime();
const message = (m: Partial<MessageRecord>): MessageRecord =>
  ({
    id: 1,
    mobile: '13800138008',
    content: '您好',
    units: 1,
    billedUnits: null,
    outcome: 'accepted',
    state: 'answered',
    endedAt: at,
    createdAt: at,
    ...m,
  }) as MessageRecord;

describe('what a message cost', () => {
  it('a send the provider refused (402) cost 0, whatever units its text has or the reply counted', () => {
    expect(billingOf(message({ outcome: 'rejected', state: 'failed', units: 1, billedUnits: 1 }))).toEqual({ kind: 'refused', units: 0 });
    expect(billingOf(message({ billedUnits: 2 }))).toEqual({ kind: 'charged', units: 2 });
    expect(billingOf(message({ billedUnits: null, units: 3 }))).toEqual({ kind: 'charged', units: 3 });
    expect(billingOf(message({ state: 'no_answer' }))).toEqual({ kind: 'unanswered', units: 0 });
    expect(billingOf(message({ state: 'calling', endedAt: null }))).toEqual({ kind: 'open', units: null });
    expect(billingOf(message({ outcome: 'unknown', state: 'unknown' }))).toEqual({ kind: 'open', units: null });
  });

  it.each(['en', 'zh-CN'] as const)('is said the same in the row and the detail (%s)', (lang) => {
    const t = tr(lang);
    expect(billingWords(t, message({ outcome: 'rejected', state: 'failed', units: 1, billedUnits: 1 }))).toEqual({
      value: '0',
      units: 0,
      why: t('history.units.refused'),
    });
    expect(billingWords(t, message({ billedUnits: 1 }))).toEqual({ value: '1', units: 1, why: t('history.units.charged', { units: 1 }) });
    expect(billingWords(t, message({ state: 'calling', endedAt: null }))).toMatchObject({ value: '—', units: null });
  });
});

describe('a later send of the same text to the same number', () => {
  it('says when it went and what became of it, in both languages', () => {
    const later = message({ id: 2, createdAt: new Date(2026, 10, 27, 10, 41, 0).getTime() });
    expect(laterSendWords(tr('en'), 'en', later, at)).toBe('Sent again to this number at 10:41: Answered.');
    expect(laterSendWords(tr('zh-CN'), 'zh-CN', later, at)).toMatch(/^已于 10:41 再次发送到该号码：.+。$/);
    const refusedToo = message({ id: 3, outcome: 'rejected', state: 'failed', createdAt: new Date(2026, 10, 28, 9, 0).getTime() });
    expect(laterSendWords(tr('en'), 'en', refusedToo, at)).toMatch(/^Sent again to this number at 2026-11-28 .* 09:00: Rejected\.$/);
  });
});
