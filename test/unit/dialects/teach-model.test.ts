// The teach flow's model: a reply as a tree (JSON texts opened), picked fields written relative to
// the record or receipt they belong to, values mapped where the dialect reads them.
import { describe, expect, it } from 'vitest';
import { builtinDialect, checkDialect, readReceipts, readSend, readStatus, SPEC_DIALECT } from '../../../common/dialects';
import { applyMapping, applyPick, ownDialect, pathsOf, readsFewer, relativePath, statesOf, treeOf } from '../../../renderer/src/features/dialects/teach-model';

const numeric = builtinDialect('numeric-states')!;
const digits = builtinDialect('digit-states')!;
const voiceid = builtinDialect('voiceid-push')!;

describe('the teach model', () => {
  it('opens fields that hold JSON texts into the tree, with their places as dialect paths', () => {
    const tree = treeOf({ code: '2', data: JSON.stringify({ callId: 'C', state: '200002', list: [{ a: 1 }] }) });
    expect(tree.map((n) => [n.key, n.kind])).toEqual([
      ['code', 'value'],
      ['data', 'json-text'],
    ]);
    const data = tree[1]!.children!;
    expect(data.map((n) => [n.key, n.kind, n.text ?? null])).toEqual([
      ['data.callId', 'value', 'C'],
      ['data.state', 'value', '200002'],
      ['data.list', 'list', null],
    ]);
    expect(data[2]!.children![0]!.children![0]).toMatchObject({ key: 'data.list.0.a', text: '1' });
    // A hostile reply: deep nesting and huge lists stay bounded.
    let deep: unknown = 'x';
    for (let i = 0; i < 50; i++) deep = { d: deep };
    expect(() => treeOf(deep)).not.toThrow();
    expect(treeOf({ l: Array.from({ length: 10_000 }, (_, i) => i) })[0]!.children).toHaveLength(200);
  });

  it('writes a picked field relative to its status record or receipt list, and it then reads', () => {
    const reply = { code: 2, list: [{ msgid: 'M1', state: '2', desc: '某个新描述', cause: 'ROUTE' }] };
    expect(relativePath(digits, 'status', 'list.0.cause')).toBe('cause');
    const picked = applyPick(digits, 'status', 'state', 'list.0.cause');
    expect(pathsOf(picked, 'status', 'state')).toEqual(['cause']);
    const mapped = applyMapping(picked, 'status', 'ROUTE', 'unreachable');
    expect(readStatus(mapped, reply, 'M1')).toMatchObject({ state: 'unreachable', value: 'ROUTE' });
    expect(relativePath(numeric, 'receipt', 'data.3.state')).toBe('state');
    expect(relativePath(SPEC_DIALECT, 'receipt', '0.state')).toBe('state');
    expect(relativePath(SPEC_DIALECT, 'balance', 'data.remain')).toBe('data.remain');
    expect(applyPick(SPEC_DIALECT, 'balance', 'units', 'data.remain').balance).toEqual({ units: 'data.remain' });
  });

  it('maps receipts where the dialect reads them: their own values, or the status values they share', () => {
    const v = applyMapping(voiceid, 'receipt', '新值', 'busy');
    expect(statesOf(v, 'receipt')['新值']).toBe('busy');
    expect(readReceipts(v, { voiceid: 'V', status: '新值' })).toMatchObject([{ state: 'busy' }]);
    const n = applyMapping(numeric, 'receipt', '200002', 'busy');
    expect(n.status!.states['200002']).toBe('busy');
    expect(applyMapping(n, 'status', '200002', null).status!.states['200002']).toBeUndefined();
  });

  it('a taught dialect is the profile’s own: no built-in id, its new name, still valid', () => {
    const own = ownDialect(applyMapping(numeric, 'status', '200002', 'busy'), 'Mine');
    expect(own.id).toBeUndefined();
    expect(own.name).toBe('Mine');
    expect(checkDialect(JSON.parse(JSON.stringify(own))).ok).toBe(true);
  });
});

describe('a reading that reads fewer replies', () => {
  const count = (resolved: number, before: number, total = 16) => ({ total, resolved, before });
  it('names each kind of reply the candidate reads fewer of than the profile does now', () => {
    expect(readsFewer({ sends: count(4, 4, 4), status: count(2, 14), receipts: count(3, 3, 3), balance: count(0, 1, 1) })).toEqual([
      { kind: 'status', total: 16, resolved: 2, before: 14 },
      { kind: 'balance', total: 1, resolved: 0, before: 1 },
    ]);
  });
  it('says nothing when it reads as many or more', () => {
    expect(readsFewer({ sends: count(1, 0, 1), status: count(15, 14), receipts: count(0, 0, 0), balance: count(1, 1, 1) })).toEqual([]);
  });
});

describe('teaching a send reply', () => {
  it('picks the message ID and the units billed, where the dialect reads them (no record to be relative to)', () => {
    const lost = { ...numeric, send: { ...numeric.send, id: 'data.messageId' } };
    expect(pathsOf(lost, 'send', 'id')).toEqual(['data.messageId']);
    const found = applyPick(lost, 'send', 'id', 'data.callId');
    expect(found.send).toEqual({ id: 'data.callId', count: 'data.count' });
    expect(readSend(found, { code: '2', data: JSON.stringify({ callId: 'C1', count: '1' }) }).id).toBe('C1');
    // A send reply has no state values to map: mapping one changes nothing.
    expect(applyMapping(found, 'send', '200002', 'busy')).toBe(found);
  });
});
