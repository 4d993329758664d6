import { describe, expect, it } from 'vitest';
import Papa from 'papaparse';
import { BOM, toCsv } from '../../../main/export';
import type { MessageRecord } from '../../../common/records';

function message(over: Partial<MessageRecord> = {}): MessageRecord {
  return {
    id: 1,
    profile: 'p-main',
    baseUrl: 'http://x',
    apiId: 'id',
    mobile: '13800138000',
    content: '您好，张三，您的订单123已发货，请注意查收。',
    templateId: 'tpl-ship',
    units: 1,
    outcome: 'accepted',
    code: 2,
    providerMsg: '提交成功',
    smsid: 'S1',
    billedUnits: 1,
    state: 'answered',
    duration: 18,
    errorKind: null,
    reason: null,
    createdAt: Date.UTC(2026, 2, 1, 1, 2, 3),
    updatedAt: Date.UTC(2026, 2, 1, 1, 2, 3),
    endedAt: Date.UTC(2026, 2, 1, 1, 3, 0),
    attempts: 1,
    resendOf: null,
    batchItemId: null,
    ...over,
  };
}

function parse(csv: string): string[][] {
  expect(csv.startsWith(BOM)).toBe(true);
  return Papa.parse<string[]>(csv.slice(1), { skipEmptyLines: true }).data;
}

describe('CSV export', () => {
  it('starts with a UTF-8 byte-order mark and Chinese headers, one row per message, Chinese text intact', () => {
    const csv = toCsv(
      [message(), message({ id: 2, outcome: 'unknown', state: 'unknown', code: null, duration: null, endedAt: null, templateId: null })],
      'zh-CN',
      {
        utcOffsetMinutes: 480,
        templateNames: { 'tpl-ship': '发货通知' },
        profileNames: { 'p-main': '生产' },
      },
    );
    expect(Buffer.from(csv, 'utf8').subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
    const rows = parse(csv);
    expect(rows[0]).toEqual([
      '编号',
      '发送时间',
      '手机号码',
      '内容',
      '模板',
      '配置',
      '计费条数',
      '发送结果',
      '结果码',
      '呼叫状态',
      '通话时长（秒）',
      '结束时间',
    ]);
    expect(rows[1]).toEqual([
      '1',
      '2026-03-01 09:02:03',
      '13800138000',
      '您好，张三，您的订单123已发货，请注意查收。',
      '发货通知',
      '生产',
      '1',
      '已受理',
      '2',
      '已接听',
      '18',
      '2026-03-01 09:03:00',
    ]);
    expect(rows[2]).toEqual([
      '2',
      '2026-03-01 09:02:03',
      '13800138000',
      '您好，张三，您的订单123已发货，请注意查收。',
      '',
      '生产',
      '',
      '结果未知',
      '',
      '状态未知',
      '',
      '',
    ]);
    expect(csv).toContain('\r\n');
  });

  it('counts the units a message cost: an answered call its units, a refused send or an unanswered call nothing, an open call not yet', () => {
    const rows = parse(
      toCsv(
        [
          message({ id: 1 }),
          message({ id: 2, outcome: 'rejected', code: 402, state: 'pending', duration: null, endedAt: null, billedUnits: null }),
          message({ id: 3, state: 'no_answer', duration: 0 }),
          message({ id: 4, state: 'calling', endedAt: null, duration: null }),
        ],
        'en',
        { utcOffsetMinutes: 0 },
      ),
    );
    expect(rows.slice(1).map((r) => [r[0], r[6], r[7]])).toEqual([
      ['1', '1', 'Accepted'],
      ['2', '0', 'Rejected'],
      ['3', '0', 'Accepted'],
      ['4', '', 'Accepted'],
    ]);
  });

  it('speaks English when asked', () => {
    const rows = parse(toCsv([message({ state: 'no_answer' })], 'en', { utcOffsetMinutes: 0 }));
    expect(rows[0]).toEqual([
      'ID',
      'Created',
      'Mobile',
      'Content',
      'Template',
      'Profile',
      'Units charged',
      'Outcome',
      'Code',
      'State',
      'Duration (s)',
      'Ended',
    ]);
    expect(rows[1]!.slice(7, 10)).toEqual(['Accepted', '2', 'No answer']);
    expect(rows[1]![1]).toBe('2026-03-01 01:02:03');
  });

  it('cannot smuggle a formula into a spreadsheet, even across lines; commas, quotes and line breaks survive', () => {
    const evil = ['=HYPERLINK("http://evil","x")', '+1+1', '-2+3', '@SUM(A1)', '\t=1', "=cmd|' /C calc'!A0\n第二行", '＝1+1'];
    const rows = parse(
      toCsv(
        evil.map((content, i) => message({ id: i + 1, content })),
        'en',
      ),
    );
    rows.slice(1).forEach((row, i) => expect(row[3]).toBe(`'${evil[i]}`));
    const plain = parse(toCsv([message({ content: '价格, "优惠"\n明天 - 截止' })], 'en'));
    expect(plain[1]![3]).toBe('价格, "优惠"\n明天 - 截止');
  });
});
