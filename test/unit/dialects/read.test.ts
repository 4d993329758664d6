// Reading replies with a dialect: where each value is, what it means, and what is never guessed.
import { describe, expect, it } from 'vitest';
import {
  BUILTIN_DIALECTS,
  builtinDialect,
  checkDialect,
  parseDialectText,
  readBalance,
  readReceipts,
  readSend,
  readStatus,
  SPEC_DIALECT,
  valueAt,
  type Dialect,
} from '../../../common/dialects';

const numeric = builtinDialect('numeric-states')!;
const digits = builtinDialect('digit-states')!;
const voiceid = builtinDialect('voiceid-push')!;

/** The issue's example, as a tester would write it. */
const EXAMPLE = {
  name: 'Example',
  send: { id: 'voiceid' },
  status: { record: 'data', state: 'state', duration: 'duration', states: { '200000': 'answered', '200003': 'no_answer', '200010': 'powered_off' } },
  balance: { units: 'num' },
  codes: { '405': { meaning: 'wrong API ID or Key', outcome: 'rejected' } },
};

describe('the dialect format', () => {
  it('accepts the example of the issue as written, with the spec’s defaults for what it leaves out', () => {
    const r = checkDialect(EXAMPLE);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.dialect).toMatchObject({ name: 'Example', code: 'code', message: ['msg', 'message'], words: true });
    expect(readSend(r.dialect, { code: 2, msg: '提交成功', voiceid: 'V1' })).toMatchObject({ outcome: 'accepted', id: 'V1' });
    expect(readSend(r.dialect, { code: 405, msg: 'x' })).toMatchObject({ outcome: 'rejected', meaning: 'wrong API ID or Key' });
  });

  it('says what is wrong, field by field: a misspelt state, an unknown field, a path with a space, a code with a space', () => {
    const r = checkDialect({
      ...EXAMPLE,
      sned: {},
      status: { ...EXAMPLE.status, states: { '200000': 'answred' }, state: 'data state' },
      codes: { '40 5': { outcome: 'rejected' } },
    });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.issues).toEqual(
      expect.arrayContaining([
        { path: 'sned', message: 'dialect-unknown-field' },
        { path: 'status.states.200000', message: 'dialect-state' },
        { path: 'status.state', message: 'dialect-path' },
        expect.objectContaining({ path: expect.stringMatching(/^codes/), message: expect.stringMatching(/^dialect-/) }),
      ]),
    );
  });

  it('refuses files that are not a dialect at all: not JSON, a list, too large, missing sections', () => {
    expect(parseDialectText('{name: "x"')).toEqual({ ok: false, issues: [{ path: '', message: 'dialect-not-json' }] });
    expect(parseDialectText('[]')).toEqual({ ok: false, issues: [{ path: '', message: 'dialect-not-object' }] });
    expect(parseDialectText(`{"name":"${'x'.repeat(300_000)}"}`)).toEqual({ ok: false, issues: [{ path: '', message: 'dialect-too-large' }] });
    const missing = parseDialectText('\uFEFF{"name":"x"}');
    expect(missing.ok ? [] : missing.issues).toEqual([
      { path: 'send', message: 'dialect-missing' },
      { path: 'status', message: 'dialect-missing' },
    ]);
  });

  it('ships valid built-ins, the spec’s first', () => {
    expect(BUILTIN_DIALECTS.map((d) => d.id)).toEqual(['spec', 'voiceid-push', 'numeric-states', 'digit-states', 'ihuyi']);
    for (const d of BUILTIN_DIALECTS) expect(checkDialect(JSON.parse(JSON.stringify(d))).ok).toBe(true);
  });
});

describe('reading with a dialect', () => {
  it('follows dot paths through lists and fields that hold JSON texts', () => {
    const raw = { data: JSON.stringify({ list: [{ state: 'A' }, { state: 'B' }] }) };
    expect(valueAt(raw, 'data.list.1.state')).toBe('B');
    expect(valueAt(raw, 'data.list.state')).toBe('A');
    expect(valueAt({ Data: { State: 1 } }, 'data.state')).toBe(1);
    expect(valueAt(raw, 'data.nope.state')).toBeUndefined();
    expect(valueAt(raw, '')).toBe(raw);
  });

  it('numeric states inside a data field that is itself a JSON text; string values; code 405 by its meaning', () => {
    const reply = (state: string, duration = '0') => ({ code: '2', msg: '查询成功', data: JSON.stringify({ callId: 'C1', state, duration }) });
    expect(readStatus(numeric, reply('200000', '17'))).toMatchObject({ outcome: 'accepted', state: 'answered', duration: 17, unmapped: false, id: 'C1' });
    expect(readStatus(numeric, reply('200003'))).toMatchObject({ state: 'no_answer' });
    expect(readStatus(numeric, reply('200005'))).toMatchObject({ state: 'unreachable' });
    expect(readStatus(numeric, reply('200010'))).toMatchObject({ state: 'powered_off' });
    // A value it does not know stays unknown, and says which value.
    expect(readStatus(numeric, reply('200002'))).toMatchObject({ state: 'unknown', unmapped: true, value: '200002', path: 'state' });
    // No state yet (the call goes on): nothing to map.
    expect(readStatus(numeric, { code: '2', data: JSON.stringify({ callId: 'C1' }) })).toMatchObject({ state: 'unknown', unmapped: false, value: null });
    expect(readSend(numeric, { code: '2', data: JSON.stringify({ callId: 'C9', count: '1' }) })).toMatchObject({ id: 'C9', count: 1 });
    expect(readSend(numeric, { code: '405', msg: '鉴权失败' })).toMatchObject({ outcome: 'rejected', code: 405, meaning: 'wrong API ID or Key' });
    expect(readBalance(numeric, { code: '2', data: '{"balance":"8"}' }).units).toBe(8);
  });

  it('a Chinese description read before the 0/1/2 digit, and the digit when the description is not known', () => {
    const list = (desc: string, state: string) => ({
      code: 2,
      list: [
        { msgid: 'M0', state: '1', desc: '用户听完语音' },
        { msgid: 'M1', state, desc, duration: 0 },
      ],
    });
    expect(readStatus(digits, list('被叫用户无法接通', '2'), 'M1')).toMatchObject({ state: 'unreachable', value: '被叫用户无法接通' });
    expect(readStatus(digits, list('某个新的描述', '2'), 'M1')).toMatchObject({ state: 'failed', value: '2', path: 'state' });
    // Without the ID, the first record of the list.
    expect(readStatus(digits, list('x', '2'))).toMatchObject({ state: 'answered' });
  });

  it('the spec’s reading: common field names, nested or flat, common words; never a guess', () => {
    expect(readStatus(SPEC_DIALECT, { code: 2, state: 'answered', duration: 18 })).toMatchObject({ state: 'answered', duration: 18 });
    expect(readStatus(SPEC_DIALECT, { code: '2', data: { status: '未接听', call_duration: '0' } })).toMatchObject({ code: 2, state: 'no_answer', duration: 0 });
    expect(readStatus(SPEC_DIALECT, { code: 2, state: '200005' })).toMatchObject({ state: 'unknown', unmapped: true, value: '200005' });
    expect(readBalance(SPEC_DIALECT, { code: 2, whatever: 5 }).units).toBeNull();
  });

  it('a code 2 without a usable ID has no ID: missing, empty, an object, a list', () => {
    for (const raw of [
      { code: 2 },
      { code: 2, smsid: '' },
      { code: 2, smsid: '  ' },
      { code: 2, smsid: { id: 1 } },
      { code: 2, smsid: [1] },
      { code: 2, smsid: 'a\u0000b' },
      { code: 2, smsid: 'x'.repeat(200) },
    ]) {
      expect(readSend(SPEC_DIALECT, raw), JSON.stringify(raw)).toMatchObject({ outcome: 'accepted', id: null });
    }
    expect(readSend(SPEC_DIALECT, { code: 2, smsid: 12345 }).id).toBe('12345');
  });

  it('garbage figures are not facts: negative units, absurd durations, a fraction of a unit', () => {
    expect(readSend(SPEC_DIALECT, { code: 2, smsid: 'a', count: -3 }).count).toBeNull();
    expect(readSend(SPEC_DIALECT, { code: 2, smsid: 'a', count: 1.5 }).count).toBeNull();
    expect(readBalance(SPEC_DIALECT, { code: 2, num: -10 }).units).toBeNull();
    expect(readBalance(SPEC_DIALECT, { code: 2, num: '9' }).units).toBe(9);
    expect(readStatus(SPEC_DIALECT, { code: 2, state: 'answered', duration: 86_400_000 }).duration).toBeNull();
    expect(readStatus(SPEC_DIALECT, { code: 2, state: 'answered', duration: -1 }).duration).toBeNull();
    expect(readStatus(SPEC_DIALECT, { code: 2, state: 'answered', duration: '12.6' }).duration).toBe(12);
    expect(readStatus(SPEC_DIALECT, { code: 2, state: 'calling', attempts: 0 }).attempts).toBeNull();
  });

  it('a dialect may name its own success code; then 2 is no longer one', () => {
    const own: Dialect = { ...SPEC_DIALECT, id: undefined, codes: { '0': { outcome: 'accepted' } } };
    expect(readSend(own, { code: 0, smsid: 'x' }).outcome).toBe('accepted');
    expect(readSend(own, { code: 2, smsid: 'x' }).outcome).toBe('rejected');
    expect(readSend(own, { code: 500 }).outcome).toBe('unknown');
    expect(readSend(own, { msg: 'no code' }).outcome).toBe('unknown');
  });

  it('receipts: one or many per post, in a list, a JSON text in a form field, or the post itself', () => {
    expect(
      readReceipts(SPEC_DIALECT, [
        { smsid: 'a', state: 'answered', duration: 9 },
        { smsid: 'b', state: 'busy' },
      ]).map((r) => [r.id, r.state, r.duration]),
    ).toEqual([
      ['a', 'answered', 9],
      ['b', 'busy', null],
    ]);
    expect(readReceipts(SPEC_DIALECT, { smsid: 'a', status: '已接听' })).toMatchObject([{ id: 'a', state: 'answered' }]);
    expect(readReceipts(digits, { voice_status: JSON.stringify([{ msgid: 'M', state: '2', desc: '用户忙' }]) })).toMatchObject([{ id: 'M', state: 'busy' }]);
    expect(readReceipts(voiceid, { voiceid: 'V', status: '用户听完语音', duration: '20' })).toMatchObject([{ id: 'V', state: 'answered', duration: 20 }]);
    expect(readReceipts(voiceid, { voiceid: 'V', status: '奇怪的值' })).toMatchObject([{ id: 'V', state: 'unknown', unmapped: true, value: '奇怪的值' }]);
    // Every receipt of a post is read (the listener bounds its size); receipts without an ID have none.
    const many = readReceipts(
      SPEC_DIALECT,
      Array.from({ length: 10_000 }, (_, i) => ({ smsid: String(i), state: 'answered' })),
    );
    expect(many).toHaveLength(10_000);
    expect(many[9_999]).toMatchObject({ id: '9999', state: 'answered' });
    expect(readReceipts(SPEC_DIALECT, [{ state: 'answered' }, 'junk', null])).toMatchObject([{ id: null }, { id: null }, { id: null }]);
  });
});
