// Before a list is called: its rows called with the very same text in the last 30 minutes.
import { describe, expect, it } from 'vitest';
import { RECENT_CALL_WINDOW_MS, recentlyCalled } from '../../../main/bulk/recent-calls';
import { resultsTable } from '../../../main/bulk/export';
import type { BatchItemView, BatchRecord } from '../../../main/store/batch-repository';

const row = (mobile: string, content: string, valid = true) => ({ mobile, content, valid });

describe('numbers just called with this text', () => {
  it('counts the rows whose number and text were called, with the latest time and a few numbers', () => {
    const calls = [
      { mobile: '13800138001', content: '您好，甲', at: 1_000 },
      { mobile: '13800138002', content: '您好，乙', at: 3_000 },
      { mobile: '13800138002', content: '您好，乙', at: 2_000 },
      // Same number, another text: not the same notification.
      { mobile: '13800138003', content: '您好，别的', at: 4_000 },
    ];
    const rows = [row('13800138001', '您好，甲'), row('13800138002', '您好，乙'), row('13800138003', '您好，丙'), row('13800138004', '您好，丁')];
    expect(recentlyCalled(rows, calls)).toEqual({ rows: 2, latestAt: 3_000, mobiles: ['13800138001', '13800138002'] });
  });

  it('nothing called: nothing to say; invalid rows are never counted', () => {
    expect(recentlyCalled([row('13800138001', 'x')], [])).toEqual({ rows: 0, latestAt: null, mobiles: [] });
    expect(recentlyCalled([row('13800138001', 'x', false)], [{ mobile: '13800138001', content: 'x', at: 1 }]).rows).toBe(0);
  });

  it('lists at most five numbers, and looks 30 minutes back', () => {
    const rows = Array.from({ length: 8 }, (_, i) => row(`1380013800${i}`, 't'));
    const r = recentlyCalled(
      rows,
      rows.map((x, i) => ({ mobile: x.mobile, content: 't', at: i })),
    );
    expect(r.rows).toBe(8);
    expect(r.mobiles).toHaveLength(5);
    expect(RECENT_CALL_WINDOW_MS).toBe(30 * 60_000);
  });
});

describe('a batch exported while its calls still ring', () => {
  it('says "Call in progress" for rows whose call has not ended, in both languages', () => {
    const batch = { id: 1, name: 'x', columns: null } as unknown as BatchRecord;
    const base = {
      id: 1,
      batchId: 1,
      rowNumber: 2,
      mobile: '13800138001',
      content: 't',
      units: 1,
      messageId: 1,
      code: 2,
      errorKind: null,
      reason: null,
      updatedAt: 0,
      cells: null,
      smsid: 'S1',
      duration: null,
      sentAt: 0,
      refusedSends: 0,
    };
    const items = [
      { ...base, status: 'accepted', state: 'ringing', endedAt: null },
      { ...base, id: 2, rowNumber: 3, status: 'accepted', state: 'answered', duration: 12, endedAt: 5_000 },
    ] as unknown as BatchItemView[];
    const status = (lang: 'en' | 'zh-CN') => {
      const table = resultsTable(batch, items, lang, 0);
      const col = table.header.indexOf(lang === 'en' ? 'Result' : '结果');
      return table.rows.map((r) => r[col]);
    };
    expect(status('en')).toEqual(['Call in progress', 'Accepted']);
    expect(status('zh-CN')).toEqual(['呼叫进行中', '已受理']);
  });
});
