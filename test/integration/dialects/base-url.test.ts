// A base URL with a path and a query (a gateway route, `voice.php?method=…`): every request goes to
// the base path plus the operation's path, with the base URL's query kept as a query.
import { describe, expect, it, onTestFinished } from 'vitest';
import { joinUrl } from '../../../main/voice/client';
import { scriptedServer } from '../../helpers/scripted-server';
import { OTP, rehearsal } from './helpers';

describe('a base URL with a path and a query', () => {
  it('joins paths and queries: the base query is never mangled into the path', () => {
    expect(joinUrl('https://api.example.cn/webservice/voice.php?method=GetNum', '/voice/balance').toString()).toBe(
      'https://api.example.cn/webservice/voice.php/voice/balance?method=GetNum',
    );
    expect(joinUrl('https://api.example.cn/gw/', '/voice/vm').toString()).toBe('https://api.example.cn/gw/voice/vm');
    expect(joinUrl('https://api.example.cn/gw?token=a', 'voice/status?x=1').toString()).toBe('https://api.example.cn/gw/voice/status?token=a&x=1');
  });

  it('send and balance reach the base path with the query kept', async () => {
    const server = await scriptedServer((req, _body, res) => {
      const balance = (req.url ?? '').includes('/voice/balance');
      res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8' });
      res.end(balance ? '{"code":2,"msg":"ok","num":7}' : '{"code":2,"msg":"提交成功","smsid":"S1","count":1}');
    });
    onTestFinished(() => server.close());
    const { call } = await rehearsal({});
    const p = await call('profiles.save', { name: 'Gateway', baseUrl: `${server.baseUrl}/gw/route?token=abc`, apiId: 'gw' });
    await call('profiles.setKey', { id: p.id, apiKey: 'gw-key-12345' });
    const sent = await call('messages.send', { profileId: p.id, mobile: '13800138008', content: OTP });
    expect(sent.message).toMatchObject({ outcome: 'accepted', smsid: 'S1' });
    const balance = await call('balance.query', { profileId: p.id });
    expect(server.received.map((r) => r.url)).toEqual(expect.arrayContaining(['/gw/route/voice/vm?token=abc']));
    expect(JSON.stringify(balance)).toContain('7');
    expect(server.received.map((r) => r.url)).toContain('/gw/route/voice/balance?token=abc');
  });
});
