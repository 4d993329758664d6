// Template import reads every row of what it is given and says what becomes of each: a row with a
// name but no text is a row with a problem (never dropped, never a template whose text is its
// name), and blank rows are reported too, so "N rows read" counts what the file holds.
import { describe, expect, it } from 'vitest';
import { parseCsvText, parseJsonText, parsePastedText, planImport, planSummary } from '../../../renderer/src/features/templates/template-io';

const rows = (p: ReturnType<typeof parseCsvText>) =>
  p.ok ? p.rows.map((r) => [r.where.n, r.name ?? null, r.content, r.problems.map((x) => x.code)]) : p.problem;

describe('template import: every row is accounted for', () => {
  it('a CSV row with a name and no text is a row with a problem; a blank row in between is reported', () => {
    const p = parseCsvText('名称,内容\n发货通知,您好，【变量】\n空模板,\n\n告警,【变量】告警\n');
    expect(rows(p)).toEqual([
      [2, '发货通知', '您好，【变量】', []],
      [3, '空模板', '', ['empty']],
      [5, '告警', '【变量】告警', []],
    ]);
    expect(p.ok && p.blank).toEqual([{ kind: 'row', n: 4 }]);
    const plan = planImport(p.ok ? p.rows : [], []);
    expect(planSummary(plan)).toEqual({ new: 2, update: 0, duplicate: 0, error: 1 });
  });

  it('five rows pasted from a spreadsheet with their header: five rows read, one skipped with why', () => {
    const p = parsePastedText('名称\t内容\nA\t您好\nB\t\nC\t再见\nD\t谢谢\nE\t早安');
    expect(p.ok && p.rows).toHaveLength(5);
    expect((rows(p) as unknown[])[1]).toEqual([3, 'B', '', ['empty']]);
  });

  it('cells pasted without their header: a name and an empty text is a problem, not a template whose text is the name', () => {
    const p = parsePastedText('发货通知\t您好，【变量】\n空模板\t\n\n验证码\t您的验证码是【变量】');
    expect(rows(p)).toEqual([
      [1, '发货通知', '您好，【变量】', []],
      [2, '空模板', '', ['empty']],
      [4, '验证码', '您的验证码是【变量】', []],
    ]);
    expect(p.ok && p.blank).toEqual([{ kind: 'line', n: 3 }]);
  });

  it('JSON items with a name and no (or a null) text are rows with a problem', () => {
    const p = parseJsonText('[{"name":"A","content":"x"},{"name":"B"},{"name":"C","content":null}]');
    expect(rows(p)).toEqual([
      [1, 'A', 'x', []],
      [2, 'B', '', ['empty']],
      [3, 'C', '', ['empty']],
    ]);
  });
});
