import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../../main/sandbox';
import { openStore } from '../../../main/store';
import { tempHome } from '../../helpers/temp-home';
import { cliOn } from '../cli/run-cli';
import { FASTEST_SCALE, ScaledClock } from '../../helpers/scaled-clock';
import { servicesFor } from '../bulk/helpers';
import { withStore } from '../../helpers/stored';

// The commands run on a clock twenty times faster, so that a followed call's looks come as fast as the sandbox's calls end.
const cli = cliOn(new ScaledClock(FASTEST_SCALE));

const ALERT = '【变量】告警：【变量】，请立即处理。';
const SCALE = 0.003;
let sandbox: Sandbox;
const cleanups: Array<() => unknown> = [];

beforeAll(async () => {
  sandbox = await startSandbox({ timeScale: SCALE, accounts: [{ apiId: 'dial', apiKey: 'dial-key', balance: 100_000 }] });
});
afterAll(() => sandbox.close());
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const sendsTo = (mobile: string) => sandbox.requests().filter((r) => r.op === 'send' && r.mobile === mobile).length;

describe('quick dial through the app services', () => {
  async function setup() {
    const home = tempHome();
    // Callout's clock runs 20 times faster, the sandbox's calls over 300 times: a whole run takes less than a minute of Callout's limits.
    const s = await servicesFor(home.dir, sandbox, 'dial', 'dial-key', { timeScale: SCALE, clockScale: 0.05 });
    withStore(s.services.home, (st) => st.dialSettings.save({ scope: '*', perMinute: 1, perHour: 5, perDay: 20, quietStart: null, quietEnd: null }));
    cleanups.push(home.cleanup, () => s.services.close());
    return { runtime: s.runtime, progress: s.dialProgress };
  }

  it('escalates from a colleague who does not answer to the next, and stops at the first answer', async () => {
    const { runtime, progress } = await setup();
    const { contacts, dialer } = runtime;
    const a = contacts.save({ name: '值班A', mobile: '13811110000' }); // never answers
    const b = contacts.save({ name: '值班B', mobile: '13811110008' }); // answers
    const c = contacts.save({ name: '值班C', mobile: '13811110009' });
    const group = contacts.saveGroup({ name: 'DB', memberIds: [a.id, b.id, c.id] });
    const r = await dialer.run({
      profileId: 'ext',
      groupId: group.id,
      content: ALERT.replace('【变量】', 'db1').replace('【变量】', '主库宕机'),
      attempts: 1,
      override: false,
    });
    expect(r).toMatchObject({ status: 'answered', answered: { name: '值班B' } });
    expect(r.attempts.map((x) => [x.mobile, x.state])).toEqual([
      ['13811110000', 'no_answer'],
      ['13811110008', 'answered'],
    ]);
    expect(sendsTo('13811110009')).toBe(0);
    expect(progress.map((p) => p.phase)).toEqual(expect.arrayContaining(['calling', 'ended', 'next-target', 'done']));
  });

  it('calls until answered up to the maximum, then says nobody answered; the limits then refuse another call', async () => {
    const { runtime } = await setup();
    const r = await runtime.dialer.run({
      profileId: 'ext',
      targets: [{ mobile: '13822220000' }],
      content: 'db1告警：x，请立即处理。',
      attempts: 2,
      pauseSeconds: 1,
      override: true,
    });
    expect(r.status).toBe('not-answered');
    expect(r.attempts).toHaveLength(2);
    expect(sendsTo('13822220000')).toBe(2);
    // Two calls in the last minutes, per-minute limit 1: the next is refused until a minute after the last.
    const again = runtime.dialer.start({ profileId: 'ext', targets: [{ mobile: '13822220000' }], content: 'db1告警：x，请立即处理。' });
    expect(again.started).toBe(false);
    expect(again.plan.refusals[0]).toMatchObject({ limit: 'per-minute', count: 2, max: 1 });
    expect(sendsTo('13822220000')).toBe(2);
  });
});

describe('callout dial', () => {
  let home: { dir: string; cleanup: () => void };
  let env: NodeJS.ProcessEnv;
  beforeEach(async () => {
    home = tempHome();
    env = { CALLOUT_HOME: home.dir, CALLOUT_BASE_URL: sandbox.baseUrl, CALLOUT_API_ID: 'dial', CALLOUT_API_KEY: 'dial-key' };
    expect((await cli(['template', 'add', '--id', 'alert', '--approved', '--content', ALERT, '--marker', 'host', '--marker', 'what'], env)).code).toBe(0);
    const store = openStore(home.dir);
    store.dialSettings.save({ scope: '*', perMinute: 1, perHour: 5, perDay: 20, quietStart: null, quietEnd: null });
    store.contacts.save({ name: '张三', mobile: '13833330008', favourite: true });
    store.contacts.save({ name: '李四', mobile: '13833330000' });
    store.close();
  });
  afterEach(() => home.cleanup());

  it('calls a contact by name with a template, prints one JSON result, and remembers the template for next time', async () => {
    const r = await cli(['--json', 'dial', '张三', '--template', 'alert', '--var', 'host=db1', '--var', 'what=主库宕机'], env);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.json).toMatchObject({ status: 'answered', answered: { name: '张三', mobile: '13833330008' }, attempts: [{ attempt: 1, state: 'answered' }] });
    expect(
      sandbox
        .requests()
        .filter((q) => q.op === 'send' && q.mobile === '13833330008')
        .at(-1)?.body?.content,
    ).toBe('db1告警：主库宕机，请立即处理。');
    // Again at once: the per-number limit refuses, says why, and nothing is sent.
    const refused = await cli(['--json', 'dial', '张三'], env);
    expect(refused.code).toBe(2);
    expect(refused.json).toMatchObject({ status: 'refused', refusals: [{ limit: 'per-minute', mobile: '13833330008' }] });
    expect(refused.stderr).toMatch(/At most 1 call a minute to 13833330008.*--override/);
    // With --override it calls, with the remembered template and values.
    const forced = await cli(['--json', 'dial', '张三', '--override'], env);
    expect(forced.code).toBe(0);
    expect(sandbox.requests().filter((q) => q.op === 'send' && q.mobile === '13833330008')).toHaveLength(2);
  });

  it('escalates over several contacts and exits 1 when nobody answers', async () => {
    // (--override: with the clock sped up for the test, a per-minute wait between attempts cannot be waited out)
    const r = await cli(
      ['--json', 'dial', '李四', '13833339990', '--content', 'x告警：y，请立即处理。', '--until-answered', '2', '--pause', '0', '--override'],
      env,
    );
    expect(r.code).toBe(1);
    expect(r.json).toMatchObject({ status: 'not-answered' });
    expect((r.json as { attempts: unknown[] }).attempts).toHaveLength(2 + 2);
    const escalated = await cli(['--json', 'dial', '13833331110', '13833331118', '--content', 'x告警：y，请立即处理。'], env);
    expect(escalated.code).toBe(0);
    expect(escalated.json).toMatchObject({ status: 'answered', answered: { mobile: '13833331118' } });
  });

  it('says clearly when a contact is unknown or the text is missing', async () => {
    const unknown = await cli(['--json', 'dial', 'Nobody'], env);
    expect(unknown.code).toBe(2);
    expect(unknown.json).toEqual({ error: expect.objectContaining({ kind: 'not-found' }) });
    const noTemplate = await cli(['dial', '李四'], env);
    expect(noTemplate.code).toBe(2);
    expect(noTemplate.stderr).toMatch(/--template/);
  });
});
