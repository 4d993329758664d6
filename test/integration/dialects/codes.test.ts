// Any success and error code: a provider that wraps every reply in an envelope, says nothing on
// success (no code at all) and refuses with a code word. The sandbox speaks it; the CLI reads it with
// the same dialect file: a send is accepted and followed by its id, a refusal ends `rejected`
// (exit 3) with the provider's code and message, and nothing is resent.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { checkDialect, type Dialect } from '../../../common/dialects';
import { tempHome } from '../../helpers/temp-home';
import { cli } from '../cli/run-cli';
import { OTP, rehearsal } from './helpers';

const ENVELOPE = {
  name: 'Envelope, no code on success, code words',
  code: 'Response.Error.Code',
  message: 'Response.Error.Message',
  success: { absent: 'Response.Error' },
  codes: {
    'AuthFailure.SecretIdNotFound': { meaning: 'the API ID is not known', outcome: 'rejected' },
    'FailedOperation.InsufficientBalance': { meaning: 'the account has no balance left', outcome: 'rejected' },
    InternalError: { outcome: 'unknown' },
  },
  send: { id: 'Response.SendStatus.CallId' },
  status: { record: 'Response.Call', id: 'CallId', state: 'State', duration: 'Duration', states: {} },
  balance: { units: 'Response.Balance' },
  shape: { codes: { '401': 'AuthFailure.SecretIdNotFound', '402': 'FailedOperation.InsufficientBalance', '500': 'InternalError' } },
};

function envelope(): Dialect {
  const r = checkDialect(ENVELOPE);
  if (!r.ok) throw new Error(JSON.stringify(r.issues));
  return r.dialect;
}

async function setup() {
  const { sandbox } = await rehearsal({ sandboxDialect: envelope() });
  const home = tempHome();
  onTestFinished(home.cleanup);
  const file = join(home.dir, 'envelope.json');
  writeFileSync(file, JSON.stringify(ENVELOPE));
  const env = (apiId: string) => ({ CALLOUT_HOME: home.dir, CALLOUT_BASE_URL: sandbox.baseUrl, CALLOUT_API_ID: apiId, CALLOUT_API_KEY: sandbox.demo.apiKey });
  return { sandbox, file, env };
}

describe('a provider with no code on success and code words for errors', () => {
  it('a refusal with a code word ends rejected (exit 3), its code and message shown, nothing resent', async () => {
    const { sandbox, file, env } = await setup();
    const before = sandbox.requests().length;
    const r = await cli(['--json', '--dialect', file, 'send', '--to', '13800138008', '--content', OTP], env('nobody'));
    expect(r.code).toBe(3);
    expect(r.json).toMatchObject({ outcome: 'rejected', code: 'AuthFailure.SecretIdNotFound', msg: expect.any(String) });
    const msg = (r.json as { msg: string }).msg;
    expect(r.stderr).toContain('AuthFailure.SecretIdNotFound');
    expect(r.stderr).toContain('the API ID is not known');
    expect(r.stderr).toContain(msg);
    // The reply the sandbox wrote is an envelope with the code word; one request only.
    const sent = sandbox.requests().slice(before);
    expect(sent.map((q) => q.op)).toEqual(['send']);

    const human = await cli(['--dialect', file, 'send', '--to', '13800138008', '--content', OTP], env('nobody'));
    expect(human.code).toBe(3);
    expect(human.stderr).toContain('AuthFailure.SecretIdNotFound');
    expect(
      sandbox
        .requests()
        .slice(before)
        .map((q) => q.op),
    ).toEqual(['send', 'send']);
  });

  it('a success with no code at all is accepted and its call id stored; balance reads too', async () => {
    const { sandbox, file, env } = await setup();
    const r = await cli(['--json', '--dialect', file, 'send', '--to', '13800138008', '--content', OTP], env(sandbox.demo.apiId));
    expect(r.code).toBe(0);
    expect(r.json).toMatchObject({ outcome: 'accepted', smsid: expect.stringMatching(/\S/) });
    const b = await cli(['--json', '--dialect', file, 'balance'], env(sandbox.demo.apiId));
    expect(b.code).toBe(0);
    expect(b.json).toMatchObject({ units: expect.any(Number) });
  });

  it('without the dialect, the same refusal is not read as one (today’s reading of the spec: unknown, exit 4, not resent)', async () => {
    const { env } = await setup();
    const r = await cli(['--json', 'send', '--to', '13800138008', '--content', OTP], env('nobody'));
    expect(r.code).toBe(4);
  });
});
