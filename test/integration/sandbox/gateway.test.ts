import { describe, expect, it } from 'vitest';
import type { Sandbox } from '../../../main/sandbox';
import { formatHttpDate, signParts, signRequest, type SignatureVariant } from '../../../main/signing';
import { creds, post, sandbox, TEXT } from './helpers';

const REJECTION = '{"message":"client request can\'t be validated"}';

function signed(sb: Sandbox, path: string, opts: { variant?: SignatureVariant; date?: Date; apiKey?: string; apiId?: string } = {}) {
  const steps = signRequest({
    apiId: opts.apiId ?? sb.demo.apiId,
    apiKey: opts.apiKey ?? sb.demo.apiKey,
    method: 'POST',
    url: sb.baseUrl + path,
    date: formatHttpDate(opts.date ?? new Date()),
    variant: opts.variant ?? 'spec',
  });
  expect(steps.host).toBe(`127.0.0.1:${sb.port}`);
  return { Date: steps.headers.Date, Authorization: steps.headers.Authorization };
}

describe('sandbox signature gateway', () => {
  it('off by default: unsigned requests pass', async () => {
    const sb = await sandbox();
    expect((await post(sb, '/voice/balance', creds(sb))).json?.code).toBe(2);
  });

  it('spec: a valid signature passes; none, tampered, wrong key, unknown keyId or another path → HTTP 401 with the APISIX body', async () => {
    const sb = await sandbox({ signature: 'spec' });
    const ok = await post(sb, '/voice/balance', creds(sb), { headers: signed(sb, '/voice/balance') });
    expect(ok.status).toBe(200);
    expect(ok.json?.code).toBe(2);
    expect(sb.requests().at(-1)?.signature).toMatchObject({ valid: true, variant: 'spec', keyId: sb.demo.apiId });

    const good = signed(sb, '/voice/balance');
    const last = good.Authorization.slice(-3, -2);
    const tampered = { ...good, Authorization: good.Authorization.slice(0, -3) + (last === 'A' ? 'B' : 'A') + good.Authorization.slice(-2) };
    const attempts: Array<[string, Record<string, string>, string]> = [
      ['none', {}, 'missing-authorization'],
      ['tampered', tampered, 'signature-mismatch'],
      ['no date', { Authorization: good.Authorization }, 'missing-date'],
      ['wrong key', signed(sb, '/voice/balance', { apiKey: 'not-the-key' }), 'signature-mismatch'],
      ['unknown keyId', signed(sb, '/voice/balance', { apiId: 'stranger' }), 'unknown-key'],
      ['other path', signed(sb, '/voice/status'), 'signature-mismatch'],
      ['apisix variant', signed(sb, '/voice/balance', { variant: 'apisix' }), 'signature-mismatch'],
    ];
    for (const [what, headers, reason] of attempts) {
      const r = await post(sb, '/voice/balance', creds(sb), { headers });
      expect(r.status, what).toBe(401);
      expect(r.text, what).toBe(REJECTION);
      expect(r.contentType).toMatch(/^application\/json/);
      expect(sb.requests().at(-1)?.signature, what).toMatchObject({ valid: false, reason });
    }
  });

  it('a rejected send never reaches the voice service: no call, no balance change', async () => {
    const sb = await sandbox({ signature: 'spec' });
    const body = { ...creds(sb), mobile: '13800138007', content: TEXT.code };
    const r = await post(sb, '/voice/vm', body, { headers: signed(sb, '/voice/balance') });
    expect(r.status).toBe(401);
    expect(sb.calls()).toHaveLength(0);
    expect(sb.stats().sendsAccepted).toBe(0);
    const ok = await post(sb, '/voice/vm', body, { headers: signed(sb, '/voice/vm') });
    expect(ok.json?.code).toBe(2);
    expect(sb.calls()).toHaveLength(1);
  });

  it('clock window: 299 s of skew passes, 301 s is rejected, either way; the gateway clock offset counts too', async () => {
    const sb = await sandbox({ signature: 'spec' });
    const at = (s: number) => new Date(Date.now() + s * 1000);
    const status = async (d: Date) => (await post(sb, '/voice/balance', creds(sb), { headers: signed(sb, '/voice/balance', { date: d }) })).status;
    expect(await status(at(-299))).toBe(200);
    expect(await status(at(299))).toBe(200);
    expect(await status(at(-301))).toBe(401);
    expect(sb.requests().at(-1)?.signature).toMatchObject({ reason: 'clock-skew', skewSeconds: expect.any(Number) });
    // Ahead of the gateway: 302, since a second boundary passing between signing and checking
    // could turn a +301 date into +300 (skews are whole seconds); -301 above cannot shrink that way.
    expect(await status(at(302))).toBe(401);

    sb.setClockOffset(301); // the gateway is 301 s ahead of us
    expect(await status(at(0))).toBe(401);
    expect(await status(at(301))).toBe(200);
    sb.setClockOffset(0);
    expect(await status(at(0))).toBe(200);
  });

  it('starts with a clock offset from the options', async () => {
    const sb = await sandbox({ signature: 'spec', clockOffsetSeconds: -400 });
    const r = await post(sb, '/voice/balance', creds(sb), { headers: signed(sb, '/voice/balance') });
    expect(r.status).toBe(401);
  });

  it('apisix: trailing line break and the query string are signed; spec signatures are refused', async () => {
    const sb = await sandbox({ signature: 'apisix' });
    const path = '/voice/balance?trace=1';
    const ok = await post(sb, path, creds(sb), { headers: signed(sb, path, { variant: 'apisix' }) });
    expect(ok.status).toBe(200);
    const spec = await post(sb, path, creds(sb), { headers: signed(sb, path, { variant: 'spec' }) });
    expect(spec.status).toBe(401);
  });

  it('any: both variants pass and the log says which one matched; signParts gives the same header', async () => {
    const sb = await sandbox({ signature: 'any' });
    for (const variant of ['spec', 'apisix'] as const) {
      const r = await post(sb, '/voice/balance', creds(sb), { headers: signed(sb, '/voice/balance', { variant }) });
      expect(r.status).toBe(200);
      expect(sb.requests().at(-1)?.signature?.variant).toBe(variant);
    }
    const date = formatHttpDate(new Date());
    const { authorization } = signParts({
      apiId: sb.demo.apiId,
      apiKey: sb.demo.apiKey,
      method: 'POST',
      host: `127.0.0.1:${sb.port}`,
      path: '/voice/balance',
      date,
    });
    const r = await post(sb, '/voice/balance', creds(sb), { headers: { Date: date, Authorization: authorization } });
    expect(r.status).toBe(200);
  });

  it('the mode can be switched at run time, also through the admin endpoint', async () => {
    const sb = await sandbox();
    sb.setSignatureMode('spec');
    expect((await post(sb, '/voice/balance', creds(sb))).status).toBe(401);
    sb.setSignatureMode('off');
    expect((await post(sb, '/voice/balance', creds(sb))).status).toBe(200);
    expect((await post(sb, '/__sandbox/settings', { signature: 'apisix' })).json).toMatchObject({ signatureMode: 'apisix' });
    expect((await post(sb, '/voice/balance', creds(sb))).status).toBe(401);
    expect((await post(sb, '/__sandbox/settings', { signature: 'bogus' })).status).toBe(400);
    expect(() => sb.setSignatureMode('bogus' as never)).toThrow();
  });
});

describe('sandbox signature gateway and faults', () => {
  it('provider faults sit behind the gateway: a rejected request does not use them up', async () => {
    const sb = await sandbox({ signature: 'spec' });
    sb.setFault({ kind: 'code', code: 402, times: 1 });
    const unsigned = await post(sb, '/voice/balance', creds(sb));
    expect(unsigned.status).toBe(401);
    expect(sb.requests().at(-1)?.fault).toBeUndefined();
    const r = await post(sb, '/voice/balance', creds(sb), { headers: signed(sb, '/voice/balance') });
    expect(r.json?.code).toBe(402);
    expect((await post(sb, '/voice/balance', creds(sb), { headers: signed(sb, '/voice/balance') })).json?.code).toBe(2);
  });

  it('network faults sit in front of it: a proxy error page comes whatever the signature', async () => {
    const sb = await sandbox({ signature: 'spec' });
    sb.setFault({ kind: 'html', times: 1 });
    expect((await post(sb, '/voice/balance', creds(sb))).status).toBe(502);
    expect((await post(sb, '/voice/balance', creds(sb))).status).toBe(401);
  });
});
