import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { startSandbox, type Sandbox } from '../../../main/sandbox';
import { VoiceClient, type ProviderEndpoint } from '../../../main/voice/client';
import { toCurl } from '../../../main/export';
import { Redactor } from '../../../main/voice/redaction';
import type { Exchange } from '../../../common/records';

const CURL = '/usr/bin/curl';
const KEY = 'curl-Key/with+plus=and\'quote"';

/** Runs a generated command the way a tester would paste it into a shell; returns what curl printed. */
function run(command: string): Promise<{ status: number; body: string }> {
  if (!existsSync(CURL)) throw new Error(`${CURL} is missing: install curl (Debian: apt-get install curl) to run the cURL export tests.`);
  // -s: no progress meter; -w: the HTTP status on a line of its own after the body.
  const shell = `${command.replace(/^curl /, `${CURL} -s -w '\\n%{http_code}' `)}`;
  return new Promise((resolve, reject) => {
    execFile('/bin/sh', ['-c', shell], { timeout: 10_000 }, (error, stdout, stderr) => {
      if (error) return reject(new Error(`${error.message}\n${stderr}`));
      const at = stdout.lastIndexOf('\n');
      resolve({ body: stdout.slice(0, at), status: Number(stdout.slice(at + 1)) });
    });
  });
}

let sandbox: Sandbox;
function endpoint(over: Partial<ProviderEndpoint> = {}): ProviderEndpoint {
  return {
    profile: 'curl',
    baseUrl: sandbox.baseUrl,
    apiId: 'curl-acct',
    apiKey: KEY,
    signing: null,
    connectTimeoutMs: 1000,
    totalTimeoutMs: 3000,
    format: 'json',
    ...over,
  };
}
async function sent(over: Partial<ProviderEndpoint> = {}): Promise<Exchange> {
  const r = await new VoiceClient(endpoint(over), { retries: 0 }).send({
    mobile: '13800138000',
    content: '您好，王\'s 先生，您的订单"A-1"已发货，请注意查收。',
  });
  expect(r.reply?.code).toBe(2);
  return r.exchanges[0]!;
}

beforeAll(async () => {
  sandbox = await startSandbox({ timeScale: 0.001, accounts: [{ apiId: 'curl-acct', apiKey: KEY, balance: 100 }] });
});
afterAll(() => sandbox.close());

describe('copy as cURL', () => {
  it('with the key, re-runs the same request: same path, same JSON body, accepted (code 2)', async () => {
    const original = await sent();
    const before = sandbox.requests().length;
    const command = await toCurl(original, { apiKey: KEY });
    const { status, body } = await run(command);
    expect(status).toBe(200);
    expect(JSON.parse(body)).toMatchObject({ code: 2 });
    const [first, again] = [sandbox.requests()[before - 1]!, sandbox.requests()[before]!];
    expect(again.path).toBe(first.path);
    expect(again.path).toBe('/voice/vm');
    expect(again.method).toBe('POST');
    expect(again.contentType).toBe(first.contentType);
    expect(again.body).toEqual(first.body);
    expect(again.body).toEqual(JSON.parse(original.requestBody!)); // the sandbox logs the password redacted too
    expect(sandbox.calls()).toHaveLength(2);
  });

  it('by default reproduces the redacted request: the key is not in it and the provider answers 401', async () => {
    const original = await sent();
    const command = await toCurl(original);
    expect(command).not.toContain(KEY);
    expect(command).not.toContain(JSON.stringify(KEY).slice(1, -1));
    expect(command).toContain('[REDACTED]');
    expect(command).not.toMatch(/Content-Length/i);
    const { status, body } = await run(command);
    expect(status).toBe(200);
    expect(JSON.parse(body)).toMatchObject({ code: 401 });
  });

  it('a form-encoded request keeps its exact bytes, a key with + and quotes included', async () => {
    const before = sandbox.requests().length;
    const stored = new Redactor([KEY]).exchange({
      operation: 'raw',
      method: 'POST',
      url: `${sandbox.baseUrl}/voice/balance`,
      requestHeaders: [
        ['Content-Type', 'application/x-www-form-urlencoded'],
        ['Content-Length', '99'],
      ],
      requestBody: new URLSearchParams({ account: 'curl-acct', password: KEY, format: 'json' }).toString(),
      status: null,
      statusText: null,
      responseHeaders: null,
      responseBody: null,
      error: null,
      startedAt: Date.now(),
      timings: { dnsMs: null, connectMs: null, tlsMs: null, firstByteMs: null, totalMs: 0 },
    });
    expect(stored.requestBody).not.toContain(encodeURIComponent(KEY));
    const { body } = await run(await toCurl(stored, { apiKey: KEY }));
    expect(JSON.parse(body)).toMatchObject({ code: 2 });
    expect(sandbox.requests()[before]).toMatchObject({ path: '/voice/balance', contentType: 'application/x-www-form-urlencoded' });
  });

  it('signed requests: redacted, the gateway refuses the signature; with the key, it is signed again with a fresh Date and passes', async () => {
    sandbox.setSignatureMode('spec');
    try {
      const original = await sent({ signing: 'spec' });
      const redacted = await toCurl(original);
      expect(redacted).toMatch(/signature="\[REDACTED\]"/);
      const refused = await run(redacted);
      expect(refused.status).toBe(401);
      expect(refused.body).toMatch(/client request can't be validated/);
      const resigned = await toCurl(original, { apiKey: KEY, signing: 'spec' });
      expect(resigned).not.toMatch(/\[REDACTED\]/);
      const ok = await run(resigned);
      expect(ok.status).toBe(200);
      expect(JSON.parse(ok.body)).toMatchObject({ code: 2 });
      expect(sandbox.requests().at(-1)!.signature).toMatchObject({ valid: true, variant: 'spec' });
    } finally {
      sandbox.setSignatureMode('off');
    }
  });
});

describe('the code languages (httpsnippet-lite, the same snippets httpsnippet 3 wrote)', () => {
  const request = {
    method: 'POST',
    url: 'https://api.example.com/voice/send?x=1',
    requestHeaders: [['Content-Type', 'application/json']] as Exchange['requestHeaders'],
    requestBody: '{"a":"b"}',
  };

  it('cURL sends the body byte for byte; Python passes the query apart; Node and Go keep it in the URL', async () => {
    expect(await toCurl(request)).toBe(
      [
        'curl --request POST \\',
        "  --url 'https://api.example.com/voice/send?x=1' \\",
        "  --header 'Content-Type: application/json' \\",
        `  --data-binary '{"a":"b"}'`,
      ].join('\n'),
    );
    const python = await toCurl(request, { target: 'python' });
    expect(python).toMatch(/^import requests\n/);
    expect(python).toContain('url = "https://api.example.com/voice/send"');
    expect(python).toContain('querystring = {"x":"1"}');
    expect(python).toContain('response = requests.post(url, data=payload, headers=headers, params=querystring)');
    const node = await toCurl(request, { target: 'node' });
    expect(node).toContain("const url = 'https://api.example.com/voice/send?x=1';");
    expect(node).toContain(`body: '{"a":"b"}'`);
    const go = await toCurl(request, { target: 'go' });
    expect(go).toMatch(/^package main\n/);
    expect(go).toContain('req, _ := http.NewRequest("POST", url, payload)');
    expect(go).toContain('payload := strings.NewReader("{\\"a\\":\\"b\\"}")');
  });
});

describe('copy as cURL with the key, for a dialect that puts the key in a header of its own', () => {
  it('the header carries the key again (its prefix kept); without the key it stays redacted', async () => {
    const key = 'hdr-key-12345678';
    const stored = new Redactor([key]).exchange({
      operation: 'send',
      method: 'POST',
      url: 'https://api.example.com/v2/calls',
      requestHeaders: [
        ['Content-Type', 'application/json; charset=utf-8'],
        ['X-Api-Key', `Key ${key}`],
      ],
      requestBody: '{"appid":"a","to":"13800138000"}',
      status: 200,
      statusText: 'OK',
      responseHeaders: [],
      responseBody: '{}',
      error: null,
      startedAt: 0,
      timings: { dnsMs: null, connectMs: null, tlsMs: null, firstByteMs: null, totalMs: 1 },
    });
    expect(await toCurl(stored)).not.toContain(key);
    expect(await toCurl(stored, { apiKey: key })).toContain(`X-Api-Key: Key ${key}`);
  });
});
