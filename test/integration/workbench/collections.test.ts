// Saved requests: collections with variables and assertions, per-profile environments, runs kept
// in the history, the collection file (Postman v2.1 with Callout's fields) both ways, and
// `callout run` with the exit status a CI job reads.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CollectionView, EnvironmentView, RunView, SavedRequestView } from '../../../common/contract';
import { MESSAGES } from '../../../common/messages';
import type { ExchangeRecord } from '../../../common/records';
import { dispatch } from '../../../main/dispatch';
import { createHandlers } from '../../../main/handlers';
import { startSandbox, type Sandbox } from '../../../main/sandbox';
import { SessionSecretStore } from '../../../main/secrets';
import { createServices, type Services } from '../../../main/services';
import { tempHome } from '../../helpers/temp-home';
import { cli } from '../cli/run-cli';
import { withStore } from '../../helpers/stored';

let services: Services;
let key: string;
const home = tempHome();
const progress: unknown[] = [];
const call = async <T>(channel: string, input?: unknown): Promise<T> => {
  const r = await dispatch(createHandlers(services), channel, input);
  if (!r.ok) throw Object.assign(new Error(r.error.code), r.error);
  return r.value as T;
};

beforeAll(async () => {
  const store = new SessionSecretStore();
  services = await createServices({
    home: home.dir,
    secrets: { store, status: { kind: 'session', keychainAvailable: false, reason: 't' } },
    sandbox: { timeScale: 0.002 },
  });
  key = (await store.get('profile:sandbox'))!;
  services.subscribe((channel, payload) => channel === 'main:run-progress' && progress.push(payload));
});
afterAll(async () => {
  await services.close();
  home.cleanup();
});

describe('collections and runs', () => {
  let collection: CollectionView;
  let balance: SavedRequestView;
  let status: SavedRequestView;

  it('saves a collection with a variable, and requests with assertions and a capture', async () => {
    collection = await call('collections.save', { name: 'Smoke', variables: [{ name: 'mobile', value: '13800138005' }] });
    balance = await call('collections.saveRequest', {
      collectionId: collection.id,
      name: 'Balance',
      request: { method: 'POST', path: '/voice/balance' },
      assertions: [
        { kind: 'status', equals: 200 },
        { kind: 'code', equals: 2 },
        { kind: 'json-exists', path: 'num' },
      ],
    });
    const sendReq = await call<SavedRequestView>('collections.saveRequest', {
      collectionId: collection.id,
      name: 'Send to {{mobile}}',
      request: { method: 'POST', path: '/voice/vm', body: { kind: 'json', text: '{"mobile":"{{mobile}}","content":"您的验证码是{{code}}，5分钟内有效。"}' } },
      assertions: [
        { kind: 'code', equals: 2 },
        { kind: 'json-equals', path: '$.count', equals: '1' },
      ],
      captures: [{ variable: 'smsid', path: 'smsid' }],
    });
    status = await call('collections.saveRequest', {
      collectionId: collection.id,
      name: 'Status of what was sent',
      request: { method: 'POST', path: '/voice/status', body: { kind: 'json', text: '{"smsid":"{{smsid}}"}' } },
      assertions: [{ kind: 'code', equals: 2 }],
    });
    expect(sendReq.position).toBe(1);
    const got = await call<CollectionView>('collections.get', { id: collection.id });
    expect(got.requests.map((r) => r.name)).toEqual(['Balance', 'Send to {{mobile}}', 'Status of what was sent']);
    await expect(call('collections.save', { name: 'smoke' })).rejects.toMatchObject({ code: 'name-taken', params: { kind: 'collection' } });
  });

  it('runs the collection: variables from the collection and the environment, a captured smsid, results kept with the run', async () => {
    const env = await call<EnvironmentView>('environments.save', { name: 'Sandbox env', profileId: 'sandbox', variables: [{ name: 'code', value: '4321' }] });
    const run = await call<RunView>('collections.run', { id: collection.id, environmentId: env.id });
    expect(run.results.map((r) => [r.name, r.outcome])).toEqual([
      ['Balance', 'passed'],
      ['Send to {{mobile}}', 'passed'],
      ['Status of what was sent', 'passed'],
    ]);
    expect(run).toMatchObject({ status: 'passed', passed: 3, failed: 0, errored: 0, environmentName: 'Sandbox env', profile: 'sandbox' });
    const sent = await call<ExchangeRecord>('exchanges.get', { id: run.results[1]!.exchangeId });
    expect(JSON.parse(sent.requestBody!)).toMatchObject({ mobile: '13800138005', content: '您的验证码是4321，5分钟内有效。' });
    const smsid = JSON.parse(sent.responseBody!).smsid;
    const followed = await call<ExchangeRecord>('exchanges.get', { id: run.results[2]!.exchangeId });
    expect(JSON.parse(followed.requestBody!).smsid).toBe(smsid);
    expect(await call<RunView>('runs.get', { id: run.id })).toEqual(run);
    expect((await call<{ id: number }[]>('runs.list')).map((r) => r.id)).toContain(run.id);
    expect(progress.filter((p) => (p as { runId: number }).runId === run.id)).toHaveLength(4);
    expect(JSON.stringify(withStore(services.home, (s) => s.db.prepare('SELECT * FROM run_results').all()))).not.toContain(key);
  });

  it('says which assertion failed and what was found; a request it cannot send is an error, the others still run', async () => {
    await call('collections.saveRequest', {
      id: balance.id,
      collectionId: balance.collectionId,
      name: balance.name,
      request: balance.request,
      assertions: [
        { kind: 'code', equals: 401 },
        { kind: 'json-equals', path: 'code', equals: '"3"' },
      ],
    });
    const run = await call<RunView>('collections.run', { id: collection.id, profileId: 'sandbox', requestIds: [balance.id, status.id] });
    expect(run.status).toBe('error');
    expect(run.results[0]).toMatchObject({ outcome: 'failed', providerCode: 2 });
    expect(run.results[0]!.assertions).toEqual([
      { assertion: { kind: 'code', equals: 401 }, passed: false, actual: '2' },
      { assertion: { kind: 'json-equals', path: 'code', equals: '"3"' }, passed: false, actual: '2', expected: '"3"' },
    ]);
    // Without the send before it, {{smsid}} has no value: not sent.
    expect(run.results[1]).toMatchObject({ outcome: 'error', exchangeId: null, problem: { code: 'unresolved-variables', params: { names: 'smsid' } } });
  });

  it('exports a Postman v2.1 file that other tools read, and imports it back exactly', async () => {
    const { fileName, json } = await call<{ fileName: string; json: string }>('collections.export', { id: collection.id });
    expect(fileName).toBe('Smoke.postman_collection.json');
    const file = JSON.parse(json);
    expect(file.info.schema).toBe('https://schema.getpostman.com/json/collection/v2.1.0/collection.json');
    const item = file.item[1];
    expect(item.request.url.raw).toBe('{{baseUrl}}/voice/vm');
    // For other tools, Callout's parameters are written out as variables.
    expect(JSON.parse(item.request.body.raw)).toMatchObject({ account: '{{account}}', password: '{{password}}', format: 'json', mobile: '{{mobile}}' });
    expect(item.event[0].script.exec.join('\n')).toContain('pm.test(');
    expect(json).not.toContain(key);
    const back = await call<{ collection: CollectionView; warnings: unknown[] }>('collections.import', { text: json });
    expect(back.collection.name).toBe('Smoke (2)');
    expect(back.warnings).toEqual([]);
    const original = await call<CollectionView>('collections.get', { id: collection.id });
    expect(back.collection.variables).toEqual(original.variables);
    expect(back.collection.requests.map(({ name, request, assertions, captures }) => ({ name, request, assertions, captures }))).toEqual(
      original.requests.map(({ name, request, assertions, captures }) => ({ name, request, assertions, captures })),
    );
  });

  it("reads another tool's collection: folders flattened, scripts and auth said, the host replaced by the profile's", async () => {
    const postman = {
      info: { name: 'From Postman', schema: 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json' },
      item: [
        {
          name: 'Folder',
          item: [
            {
              name: 'Balance',
              event: [{ listen: 'test', script: { exec: ['pm.test("ok", () => {})'] } }],
              request: {
                method: 'post',
                auth: { type: 'bearer' },
                header: [{ key: 'Content-Type', value: 'application/x-www-form-urlencoded' }],
                url: { raw: 'https://api.example.com/voice/balance?x=1' },
                body: {
                  mode: 'urlencoded',
                  urlencoded: [
                    { key: 'account', value: '{{account}}' },
                    { key: 'password', value: '{{password}}' },
                  ],
                },
              },
            },
          ],
        },
        { name: 'Upload', request: { method: 'POST', url: '{{baseUrl}}/voice/vm', body: { mode: 'formdata', formdata: [] } } },
      ],
      variable: [
        { key: 'password', value: 'leaked?' },
        { key: 'mobile', value: '13800138000' },
      ],
    };
    const r = await call<{ collection: CollectionView; warnings: { code: string }[] }>('collections.import', { text: JSON.stringify(postman) });
    expect(r.collection.requests.map((x) => x.name)).toEqual(['Folder / Balance', 'Upload']);
    expect(r.collection.requests[0]!.request).toMatchObject({ method: 'POST', path: '/voice/balance?x=1', credentials: 'none', body: { kind: 'form' } });
    expect(r.collection.variables).toEqual([{ name: 'mobile', value: '13800138000' }]);
    expect(r.warnings.map((w) => w.code).sort()).toEqual(['auth-ignored', 'body-mode', 'folder-flattened', 'script-ignored', 'url-host', 'variable-reserved']);
    const run = await call<RunView>('collections.run', { id: r.collection.id, profileId: 'sandbox', requestIds: [r.collection.requests[0]!.id] });
    expect(run.results[0]).toMatchObject({ outcome: 'passed', providerCode: 2 });
    for (const bad of [
      'not json',
      '{"info":{}}',
      JSON.stringify({ info: { name: 'x', schema: 'https://schema.getpostman.com/json/collection/v1.0.0/collection.json' }, item: [] }),
    ]) {
      await expect(call('collections.import', { text: bad })).rejects.toMatchObject({ code: 'collection-file-invalid' });
    }
  });

  // A hostile file (built as text: it is too deep for JSON.stringify) gets a coded error or a clean
  // import, never an internal error; and a file of junk items yields a short list of warnings.
  describe('a hostile collection file', () => {
    const SCHEMA = 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json';
    const REQUEST = '{"name":"Balance","request":{"method":"POST","url":"{{baseUrl}}/voice/balance"}}';
    const file = (items: string) => `{"info":{"name":"Hostile","schema":"${SCHEMA}"},"item":[${items}]}`;
    const folders = (depth: number, inner: string) => '{"name":"f","item":['.repeat(depth) + inner + ']}'.repeat(depth);

    it('folders nested 20,000 deep: refused as too deep; 100 deep is still read', async () => {
      await expect(call('collections.import', { text: file(folders(20_000, REQUEST)) })).rejects.toMatchObject({
        code: 'collection-file-invalid',
        params: { kind: 'too-deep' },
      });
      await expect(call('collections.import', { text: file(folders(101, REQUEST)) })).rejects.toMatchObject({ params: { kind: 'too-deep' } });
      const ok = await call<{ collection: CollectionView }>('collections.import', { text: file(folders(100, REQUEST)) });
      expect(ok.collection.requests).toHaveLength(1);
      expect(ok.collection.requests[0]!.name.startsWith('f / f / ')).toBe(true);
    });

    it('a name or a value that is a 50,000-deep array is read as no name / no value', async () => {
      const deep = '['.repeat(50_000) + ']'.repeat(50_000);
      const item = `{"name":${deep},"request":{"method":"POST","url":"{{baseUrl}}/voice/balance","header":[{"key":"X-Deep","value":${deep}}]}}`;
      const text = `{"info":{"name":"Deep","schema":"${SCHEMA}","description":{"content":${deep}}},"item":[${item}],"variable":[{"key":"v","value":${deep}}]}`;
      const r = await call<{ collection: CollectionView }>('collections.import', { text });
      expect(r.collection.requests.map((x) => x.name)).toEqual(['request']);
      expect(r.collection.requests[0]!.request.headers).toEqual([{ name: 'X-Deep', value: '', enabled: true }]);
      expect(r.collection.variables).toEqual([{ name: 'v', value: '' }]);
    });

    it('5,000 items it cannot read: the first 100 warnings, then one that says how many more', async () => {
      const r = await call<{ collection: CollectionView; warnings: { code: string; params: { more?: number } }[] }>('collections.import', {
        text: file([...Array<string>(5000).fill('{"name":"junk"}'), REQUEST].join(',')),
      });
      expect(r.collection.requests).toHaveLength(1);
      expect(r.warnings).toHaveLength(101);
      expect(r.warnings.slice(0, 100).every((w) => w.code === 'item-skipped')).toBe(true);
      expect(r.warnings[100]).toEqual({ code: 'more-warnings', params: { more: 4900 } });
    });
  });
});

describe('callout run', () => {
  let sandbox: Sandbox;
  let dir: string;
  const KEY = 'run-test-key';
  beforeAll(async () => {
    sandbox = await startSandbox({ timeScale: 0.002, accounts: [{ apiId: 'run-acct', apiKey: KEY, balance: 100 }] });
    dir = mkdtempSync(join(tmpdir(), 'callout-run-'));
  });
  afterAll(async () => {
    await sandbox.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('runs a collection file with a variable and an assertion; the exit status follows the assertion', async () => {
    const exported = JSON.parse((await call<{ json: string }>('collections.export', { id: (await call<CollectionView[]>('collections.list'))[0]!.id })).json);
    // One request: balance, asserting the code the --var names.
    const file = {
      ...exported,
      item: [
        {
          name: 'Balance is {{expected}}',
          request: { method: 'POST', url: '{{baseUrl}}/voice/balance' },
          callout: { request: { method: 'POST', path: '/voice/balance' }, assertions: [{ kind: 'json-equals', path: 'code', equals: '{{expected}}' }] },
        },
      ],
    };
    const path = join(dir, 'smoke.postman_collection.json');
    writeFileSync(path, JSON.stringify(file));
    const tmpHome = tempHome();
    try {
      const env = { CALLOUT_HOME: tmpHome.dir, CALLOUT_BASE_URL: sandbox.baseUrl, CALLOUT_API_ID: 'run-acct', CALLOUT_API_KEY: KEY };
      const ok = await cli(['--json', 'run', path, '--var', 'expected=2'], env);
      expect(ok.code, ok.stderr).toBe(0);
      expect(ok.json).toMatchObject({ status: 'passed', passed: 1, results: [{ name: 'Balance is {{expected}}', outcome: 'passed', providerCode: 2 }] });
      expect(ok.stdout).not.toContain(KEY);
      const failed = await cli(['run', path, '--var', 'expected=3', '--lang', 'en'], env);
      expect(failed.code).toBe(1);
      expect(failed.stdout).toContain('✗ Balance is {{expected}}');
      expect(failed.stdout).toContain('expected code = 3, got 2');
      expect(failed.stderr).toContain('Requests that failed an assertion: 1.');
      const missing = await cli(['run', path], env);
      expect(missing.code).toBe(2);
      const noReply = await cli(['run', path, '--var', 'expected=2', '--base-url', 'http://127.0.0.1:9'], { ...env, CALLOUT_BASE_URL: undefined });
      expect(noReply.code).toBe(4);
      const unknown = await cli(['run', 'No such collection'], env);
      expect(unknown.code).toBe(2);
      expect(unknown.stderr).toContain('No collection named');
      // The runs are in the history of that data directory; the file's collection was not kept.
      const later = await cli(['--json', 'history'], env);
      expect(later.code).toBe(0);
    } finally {
      tmpHome.cleanup();
    }
  });

  it("says a file's notes in the workbench's words, in both languages", async () => {
    const exported = JSON.parse((await call<{ json: string }>('collections.export', { id: (await call<CollectionView[]>('collections.list'))[0]!.id })).json);
    // A request with a test script: Callout does not run it, and says so.
    const file = {
      ...exported,
      item: [
        { name: 'Balance', event: [{ listen: 'test', script: { exec: ['pm.test("ok")'] } }], request: { method: 'POST', url: '{{baseUrl}}/voice/balance' } },
      ],
    };
    const path = join(dir, 'scripted.postman_collection.json');
    writeFileSync(path, JSON.stringify(file));
    const tmpHome = tempHome();
    try {
      const env = { CALLOUT_HOME: tmpHome.dir, CALLOUT_BASE_URL: sandbox.baseUrl, CALLOUT_API_ID: 'run-acct', CALLOUT_API_KEY: KEY };
      for (const lang of ['en', 'zh-CN'] as const) {
        const run = await cli(['run', path, '--lang', lang], env);
        expect(run.code, run.stderr).toBe(0);
        expect(run.stderr).toContain(MESSAGES[lang].workbench.fileWarning['script-ignored'].replace('{{item}}', 'Balance'));
      }
    } finally {
      tmpHome.cleanup();
    }
  });
});
