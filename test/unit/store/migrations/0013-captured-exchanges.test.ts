import { describe, expect, it } from 'vitest';
import type { CaptureInfo } from '../../../../common/capture';
import { MIGRATIONS } from '../../../../main/store/migrations';
import { ExchangeRepository } from '../../../../main/store/exchange-repository';
import { HistoryRepository } from '../../../../main/store/history-repository';
import { migrate } from '../../../../main/store/database';
import { columns, upgradeTo } from './temp-db';

const captured = (verdict: CaptureInfo['verdict']): CaptureInfo => ({
  mode: 'forward',
  sentTo: 'http://voice.example.com/voice/vm',
  hostForwarded: null,
  answeredBy: 'target',
  request: { bytes: 10, kept: 10 },
  response: { bytes: 5, kept: 5 },
  verdict,
  checks: [{ check: 'signature', verdict, code: 'unsigned', params: {} }],
});

const exchange = (startedAt: number) => ({
  operation: 'send' as const,
  method: 'POST',
  url: 'http://voice.example.com/voice/vm',
  requestHeaders: [] as [string, string][],
  requestBody: '{}',
  status: 200,
  statusText: 'OK',
  responseHeaders: [] as [string, string][],
  responseBody: '{"code":2}',
  error: null,
  startedAt,
  timings: { dnsMs: null, connectMs: null, tlsMs: null, firstByteMs: 1, totalMs: 2 },
});

function fromVersion12() {
  return upgradeTo(13, (v12) => {
    expect(columns(v12, 'exchanges')).not.toContain('capture');
    v12
      .prepare(
        `INSERT INTO exchanges (operation, method, url, request_headers, request_body, status, started_at, timings)
       VALUES ('send', 'POST', 'https://voice.example.com/voice/vm', '[]', '{}', 200, 1000, '{"totalMs":1}')`,
      )
      .run();
  });
}

describe('migration 0013: captured exchanges', () => {
  it('is the thirteenth migration', () => {
    expect(MIGRATIONS[12]).toMatchObject({ version: 13, name: 'captured-exchanges' });
  });

  it("keeps Callout's own exchanges as they were: not captured", () => {
    const db = fromVersion12();
    const history = new HistoryRepository(db);
    const all = history.listExchanges({});
    expect(all.rows).toHaveLength(1);
    expect(all.rows[0]).toMatchObject({ operation: 'send', capture: null });
    expect(history.listExchanges({ captured: true }).rows).toHaveLength(0);
  });

  it('stores a captured exchange with its checks, and lists captured ones (by verdict) apart from the rest', () => {
    const db = fromVersion12();
    // Today's writer needs today's schema (it packs exchanges: migration 0020).
    migrate(db, db.name);
    const repo = new ExchangeRepository(db);
    const pass = repo.insert(exchange(2000), { capture: captured('pass') });
    const failed = repo.insert(exchange(3000), { capture: captured('fail') });
    repo.insert({ ...exchange(4000), operation: 'tunnel' }, { capture: captured('skip') });
    const history = new HistoryRepository(db);
    expect(history.listExchanges({}).rows).toHaveLength(4);
    const only = history.listExchanges({ captured: true, order: 'oldest' }).rows;
    expect(only.map((e) => e.id)).toEqual([pass, failed, expect.any(Number)]);
    expect(only[0]!.capture).toEqual(captured('pass'));
    expect(history.listExchanges({ verdicts: ['fail'] }).rows.map((e) => e.id)).toEqual([failed]);
    expect(history.listExchanges({ captured: true, operation: 'tunnel' }).rows).toHaveLength(1);
  });

  it('refuses a verdict it does not know', () => {
    const db = fromVersion12();
    expect(() => db.prepare("UPDATE exchanges SET capture_verdict = 'maybe'").run()).toThrow(/CHECK/);
  });
});
