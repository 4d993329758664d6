import { describe, expect, it } from 'vitest';
import { parseJsonPath, readJsonPath, valueEquals } from '../../../common/domain/json-path';
import { fillVariables, variablesIn } from '../../../common/domain/variables';

describe('paths into a reply', () => {
  it('reads names, indexes and quoted names, with or without $', () => {
    expect(parseJsonPath('code')).toEqual(['code']);
    expect(parseJsonPath('$.data.list[0].state')).toEqual(['data', 'list', 0, 'state']);
    expect(parseJsonPath(`$["a b"]['c\\'d'][2]`)).toEqual(['a b', "c'd", 2]);
    expect(parseJsonPath('$')).toEqual([]);
    for (const bad of ['', 'a..b', 'a[', 'a[x]', '$$', 'a b']) expect(parseJsonPath(bad), bad).toBeNull();
  });

  it('finds a value only where it is: no prototype, no index past the end', () => {
    const reply = { code: 2, data: { list: [{ state: 'answered' }] }, empty: null };
    expect(readJsonPath(reply, ['data', 'list', 0, 'state'])).toEqual({ found: true, value: 'answered' });
    expect(readJsonPath(reply, ['empty'])).toEqual({ found: true, value: null });
    expect(readJsonPath(reply, ['data', 'list', 1])).toEqual({ found: false });
    expect(readJsonPath(reply, ['constructor'])).toEqual({ found: false });
    expect(readJsonPath(reply, ['code', 'x'])).toEqual({ found: false });
  });

  it('compares as a JSON literal or as text; a number equals its digits (XML carries text)', () => {
    expect(valueEquals(2, '2')).toBe(true);
    expect(valueEquals('2', '2')).toBe(true);
    expect(valueEquals(2, '"2"')).toBe(true);
    expect(valueEquals('answered', 'answered')).toBe(true);
    expect(valueEquals('answered', '"answered"')).toBe(true);
    expect(valueEquals(true, 'true')).toBe(true);
    expect(valueEquals(null, 'null')).toBe(true);
    expect(valueEquals({ a: [1, 2] }, '{"a":[1,2]}')).toBe(true);
    expect(valueEquals(2, '3')).toBe(false);
    expect(valueEquals(null, '')).toBe(false);
    expect(valueEquals({ a: 1 }, '{"a":1,"b":2}')).toBe(false);
  });
});

describe('variables', () => {
  it('lists the names used and fills them, leaving unknown ones as written', () => {
    expect(variablesIn('/x/{{ a }}?b={{b}}&c={{a}}')).toEqual(['a', 'b']);
    expect(
      fillVariables(
        '{"m":"{{m}}","x":"{{x}}"}',
        (n) => (n === 'm' ? 'a"b' : undefined),
        (v) => JSON.stringify(v).slice(1, -1),
      ),
    ).toEqual({
      text: '{"m":"a\\"b","x":"{{x}}"}',
      missing: ['x'],
    });
    expect(variablesIn('{{not a var}} {{1x}} {{}}')).toEqual([]);
  });
});
