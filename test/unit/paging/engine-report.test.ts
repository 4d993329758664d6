// An incident's record for people: the chat summary and the CSV, in both languages.
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../main/clock';
import { incidentCsv, incidentSummary } from '../../../main/paging/report';
import { PEOPLE, START, alertGroup, dataDirectory, rig } from './harness';

const [wang, li, zhang] = PEOPLE.map((p) => p.mobile) as [string, string, string];

describe('paging engine: an incident’s record', () => {
  it('sums the escalation up in one line, and exports every call as CSV', async () => {
    const clock = new ManualClock(START);
    const r = rig(clock, dataDirectory(), { [wang]: [{ state: 'no_answer' }], [li]: [{ state: 'busy' }], [zhang]: [{ state: 'answered', duration: 42 }] });
    const incident = r.engine.receive(alertGroup('g1'))!;
    await clock.advance(15 * 60_000);
    r.engine.resolve(incident.id, '张三');
    const d = r.engine.detail(incident.id);
    expect(d.incident).toMatchObject({ state: 'resolved', resolvedBy: '张三', ended: 'answered' });
    expect(incidentSummary(d, 'zh-CN')).toBe('10:32 王工 未接×3 → 10:37 李雷 忙 → 10:40 张三 接听');
    expect(incidentSummary(d, 'en')).toBe('10:32 王工 no answer×3 → 10:37 李雷 busy → 10:40 张三 answered');
    const zh = incidentCsv(d, 'zh-CN', 480)
      .replace(/^\uFEFF/, '')
      .split('\r\n');
    expect(zh[0]).toBe('时间,步骤,次数,姓名,手机号,结果,状态,时长（秒）,smsid,消息,延迟（秒）,限制');
    expect(zh).toHaveLength(6);
    expect(zh[5]).toBe(`2026-11-27 10:40:00,1.3,1,张三,${zhang},接听,已接听,42,s5,5,0,`);
    expect(incidentCsv(d, 'en', 480).split('\r\n')[2]).toContain(',1.1,2,王工,13800000001,no answer,No answer,,s2,2,0,');
  });
});

describe('paging engine: the record of a resolution call', () => {
  it('marks the call on resolution in the summary and the CSV, in both languages', async () => {
    const clock = new ManualClock(START);
    const r = rig(clock, dataDirectory(), { [wang]: [{ state: 'answered', duration: 20 }] }, { route: { callOnResolved: true } });
    const incident = r.engine.receive(alertGroup('g1'))!;
    await clock.advance(5 * 60_000);
    r.engine.receive(alertGroup('g1', 'resolved'));
    await clock.advance(5 * 60_000);
    const d = r.engine.detail(incident.id);
    expect(incidentSummary(d, 'zh-CN')).toBe('10:32 王工 接听 → 10:37 王工 恢复通知 接听');
    expect(incidentSummary(d, 'en')).toBe('10:32 王工 answered → 10:37 王工 resolution call answered');
    expect(incidentCsv(d, 'zh-CN', 480).split('\r\n')[2]).toBe(`2026-11-27 10:37:00,恢复通知,1,王工,${wang},接听,已接听,20,s2,2,0,`);
    expect(incidentCsv(d, 'en', 480).split('\r\n')[2]).toContain(',resolution call,1,王工,');
  });
});
