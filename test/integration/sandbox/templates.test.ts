import { describe, expect, it } from 'vitest';
import { DEMO_TEMPLATES } from '../../../main/sandbox';
import { post, sandbox, send, TEXT, waitFor } from './helpers';

describe('sandbox templates', () => {
  it('every account gets the demo templates: three approved, one under review', async () => {
    const sb = await sandbox();
    sb.addAccount({ apiId: 'second', apiKey: 'second-secret-key' });
    for (const apiId of [sb.demo.apiId, 'second']) {
      const list = sb.templates(apiId);
      expect(list.map((t) => t.content)).toEqual(DEMO_TEMPLATES.map((t) => t.content));
      expect(list.map((t) => t.status)).toEqual(['approved', 'approved', 'approved', 'pending']);
      expect(list[3]).toMatchObject({ approved: false, approvedAt: null, reviewDueAt: expect.any(String) });
    }
    expect(DEMO_TEMPLATES.map((t) => t.content)).toEqual([
      '您好，【变量】，您的订单【变量】已发货，请注意查收。',
      '【变量】告警：【变量】，请立即处理。',
      '您的验证码是【变量】，5分钟内有效。',
      '尊敬的【变量】，您预约的【变量】服务将于【变量】开始。',
    ]);
  });

  it('a template under review gives 403 until the (scaled) review delay has passed, then 2', async () => {
    // 1,000 s of review at 1000x → 1 s (long enough that the first send lands within it even on a
    // machine loaded by the rest of the suite).
    const sb = await sandbox({ reviewDelayMs: 1_000_000 });
    expect((await send(sb, '13800138007', TEXT.booking)).json?.code).toBe(403);
    await waitFor(() => sb.templates(sb.demo.apiId).every((t) => t.approved), 6000, 'review');
    const approved = sb.templates(sb.demo.apiId)[3];
    expect(approved).toMatchObject({ status: 'approved', reviewDueAt: null, approvedAt: expect.any(String) });
    expect((await send(sb, '13800138007', TEXT.booking)).json?.code).toBe(2);
  });

  it('with the default review delay (2 h) at real speed the template stays pending', async () => {
    const sb = await sandbox({ timeScale: 1 });
    const t = sb.templates(sb.demo.apiId)[3];
    expect(Date.parse(String(t?.reviewDueAt)) - Date.parse(String(t?.submittedAt))).toBe(2 * 60 * 60 * 1000);
    expect((await send(sb, '13800138007', TEXT.booking)).json?.code).toBe(403);
  });

  it('addTemplate: approved at once or after review; invalid content is refused', async () => {
    const sb = await sandbox({ demoTemplates: false, reviewDelayMs: 60_000 });
    expect(sb.templates(sb.demo.apiId)).toEqual([]);
    expect((await send(sb, '13800138007', TEXT.code)).json?.code).toBe(403);
    const now = sb.addTemplate(sb.demo.apiId, '会议提醒：【变量】', { approved: true, name: '会议' });
    expect(now).toMatchObject({ name: '会议', status: 'approved', approved: true, apiId: sb.demo.apiId });
    expect((await send(sb, '13800138007', '会议提醒：下午三点')).json?.code).toBe(2);
    const later = sb.addTemplate(sb.demo.apiId, '停电通知：【变量】', { approved: false });
    expect(later.status).toBe('pending');
    expect((await send(sb, '13800138007', '停电通知：明天')).json?.code).toBe(403);
    expect(() => sb.addTemplate(sb.demo.apiId, '   ')).toThrow(RangeError);
    expect(() => sb.addTemplate(sb.demo.apiId, 'x'.repeat(501))).toThrow(RangeError);
    expect(() => sb.addTemplate('nobody', '你好【变量】')).toThrow();
  });

  it('templates are per account', async () => {
    const sb = await sandbox({ demoTemplates: false });
    sb.addAccount({ apiId: 'b', apiKey: 'b-secret-key' });
    sb.addTemplate('b', '仅限B：【变量】');
    const r = await post(sb, '/voice/vm', { account: 'b', password: 'b-secret-key', mobile: '13800138007', content: '仅限B：你好' });
    expect(r.json?.code).toBe(2);
    expect((await send(sb, '13800138007', '仅限B：你好')).json?.code).toBe(403);
  });

  it('admin: POST /__sandbox/templates registers a template', async () => {
    const sb = await sandbox({ reviewDelayMs: 3_600_000 });
    const ok = await post(sb, '/__sandbox/templates', { apiId: sb.demo.apiId, content: '快递【变量】已到驿站' });
    expect(ok.status).toBe(200);
    expect(ok.json?.template).toMatchObject({ status: 'approved', content: '快递【变量】已到驿站' });
    expect((await send(sb, '13800138007', '快递SF123已到驿站')).json?.code).toBe(2);
    const pending = await post(sb, '/__sandbox/templates', { apiId: sb.demo.apiId, content: '取件码【变量】', approved: false });
    expect(pending.json?.template).toMatchObject({ status: 'pending' });
    expect((await post(sb, '/__sandbox/templates', { apiId: 'nobody', content: 'x【变量】' })).status).toBe(404);
    expect((await post(sb, '/__sandbox/templates', { apiId: sb.demo.apiId, content: '' })).status).toBe(400);
    expect((await post(sb, '/__sandbox/templates', { apiId: sb.demo.apiId, content: 'a', approved: 'yes' })).status).toBe(400);
  });
});
