// The one rule for matching what a person types against a name or a text (palette, contacts,
// templates, History's suggestions): text, Latin initials, and Chinese by pinyin.
import { describe, expect, it } from 'vitest';
import { matchesAny, matchText } from '../../../common/domain/search';

describe('matchText', () => {
  it('matches the text itself, ignoring case and full-width forms', () => {
    expect(matchText('发货通知', '发货通知')).toBe('exact');
    expect(matchText('发货通知', '发货')).toBe('prefix');
    expect(matchText('Database on-call', 'ON-CALL')).toBe('text');
    expect(matchText('ＡＢＣ', 'abc')).toBe('exact');
  });

  it('matches Chinese by pinyin: full syllables, initials, or a mix, over consecutive characters', () => {
    for (const q of ['wg', 'wang', 'wanggong', 'wang gong', 'wangg', 'wgong', 'WG']) expect(matchText('王工', q), q).toBe('pinyin');
    expect(matchText('发货通知', 'fhtz')).toBe('pinyin');
    expect(matchText('发货通知', 'tongzhi')).toBe('pinyin');
    expect(matchText('机房告警（王工值班）', 'wgzb')).toBe('pinyin');
    // Polyphones: either reading.
    expect(matchText('重庆分公司', 'cq')).toBe('pinyin');
    // Not in order, not consecutive, or another name: no match.
    expect(matchText('王工', 'gw')).toBeNull();
    expect(matchText('王大工', 'wg')).toBeNull();
    expect(matchText('李雷', 'wg')).toBeNull();
  });

  it("matches Latin names by their words' initials", () => {
    expect(matchText('Zhang San', 'zs')).toBe('initials');
    expect(matchText('Zhang San', 'sz')).toBeNull();
  });

  it('an empty query matches nothing by itself; matchesAny treats it as "no filter"', () => {
    expect(matchText('王工', '  ')).toBeNull();
    expect(matchesAny(['王工'], '')).toBe(true);
    expect(matchesAny([null, '告警通知', undefined], 'gj')).toBe(true);
    expect(matchesAny(['告警通知'], 'xyz')).toBe(false);
  });

  it('hostile input: long, odd or symbol-only queries neither throw nor hang', () => {
    const long = 'w'.repeat(10_000);
    const started = Date.now();
    expect(matchText('王工'.repeat(200), long)).toBeNull();
    expect(matchText('王工', "'''")).toBeNull();
    expect(matchText('王工', '.*+?')).toBeNull();
    // ReDoS/hang guard on the wall clock (pure CPU work, no clock to inject): well under 10 ms expected.
    expect(Date.now() - started).toBeLessThan(200);
  });
});
