import { describe, expect, it } from 'vitest';
import { canonicalBody, diffHeaders, diffText } from '../../../renderer/src/features/history/exchange-diff';

describe('comparing two exchanges', () => {
  it('pairs headers by name, ignoring case, and says which changed, went or came', () => {
    const rows = diffHeaders(
      [
        ['Content-Type', 'application/json'],
        ['Date', 'Mon'],
        ['X-Old', '1'],
      ],
      [
        ['content-type', 'application/json'],
        ['Date', 'Tue'],
        ['X-New', '2'],
      ],
    );
    expect(rows).toEqual([
      { name: 'Content-Type', left: 'application/json', right: 'application/json', kind: 'same' },
      { name: 'Date', left: 'Mon', right: 'Tue', kind: 'changed' },
      { name: 'X-Old', left: '1', right: null, kind: 'removed' },
      { name: 'X-New', left: null, right: '2', kind: 'added' },
    ]);
  });

  it('compares JSON bodies whatever their key order and spacing; only real differences show', () => {
    const a = canonicalBody('{"code":2,"msg":"ok","smsid":"a1","count":1}', 'application/json');
    const b = canonicalBody('{ "smsid": "b2", "count": 1, "code": 2, "msg": "ok" }', 'application/json');
    const rows = diffText(a, b);
    expect(rows.filter((r) => r.kind !== 'same')).toEqual([{ kind: 'changed', left: '  "smsid": "a1"', right: '  "smsid": "b2"' }]);
    expect(rows.filter((r) => r.kind === 'same').map((r) => r.left)).toEqual(['{', '  "code": 2,', '  "count": 1,', '  "msg": "ok",', '}']);
  });

  it('keeps malformed JSON and plain text as they are, and lines that only one side has', () => {
    expect(canonicalBody('{"a":', 'application/json')).toBe('{"a":');
    expect(diffText('a\nb', 'a\nb\nc')).toEqual([
      { kind: 'same', left: 'a', right: 'a' },
      { kind: 'same', left: 'b', right: 'b' },
      { kind: 'added', left: null, right: 'c' },
    ]);
    expect(canonicalBody('b=2&a=1', 'application/x-www-form-urlencoded')).toBe('a = 1\nb = 2');
  });
});
