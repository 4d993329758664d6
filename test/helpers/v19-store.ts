// A store as schema 19 wrote it (before exchanges were packed, migration 0020): calls as the
// follower stores them (a send, then status polls) and every other kind of exchange a tester sees.
// Shared by the migration test, the packing job's test and the browser test of the upgrade.
import type { Database } from 'better-sqlite3';

/** What the writer of schema 19 stored (its INSERT, verbatim; size_bytes came from a trigger). */
const V19_INSERT = `
  INSERT INTO exchanges (message_id, operation, profile, method, url, request_headers, request_body, status, status_text,
    response_headers, response_body, error_kind, error_message, error_ms, started_at, timings, provider_code, capture, capture_verdict)
  VALUES (@messageId, @operation, @profile, @method, @url, @requestHeaders, @requestBody, @status, @statusText,
    @responseHeaders, @responseBody, @errorKind, @errorMessage, @errorMs, @startedAt, @timings, @providerCode, @capture, @captureVerdict)`;

export const T0 = Date.UTC(2026, 9, 1);
const timings = (total: number) => JSON.stringify({ dnsMs: null, connectMs: 0.49, tlsMs: null, firstByteMs: 1, totalMs: total });
const headers = (length: number, date?: string) =>
  JSON.stringify([
    ...(date ? [['Date', date]] : []),
    ['Content-Type', 'application/json; charset=utf-8'],
    ['Accept', 'application/json'],
    ['Host', '127.0.0.1:33515'],
    ['Content-Length', String(length)],
    ['Connection', 'close'],
  ]);

interface V19Row {
  messageId: number | null;
  operation: string;
  profile: string | null;
  method: string;
  url: string;
  requestHeaders: string;
  requestBody: string | null;
  status: number | null;
  statusText: string | null;
  responseHeaders: string | null;
  responseBody: string | null;
  errorKind: string | null;
  errorMessage: string | null;
  errorMs: number | null;
  startedAt: number;
  timings: string;
  providerCode: number | null;
  capture: string | null;
  captureVerdict: string | null;
}

const base: V19Row = {
  messageId: null,
  operation: 'send',
  profile: 'p',
  method: 'POST',
  url: 'http://127.0.0.1:33515/voice/vm',
  requestHeaders: '[]',
  requestBody: null,
  status: 200,
  statusText: 'OK',
  responseHeaders: '[]',
  responseBody: null,
  errorKind: null,
  errorMessage: null,
  errorMs: null,
  startedAt: T0,
  timings: timings(1),
  providerCode: null,
  capture: null,
  captureVerdict: null,
};

/** Calls as the follower stores them (a send, then status polls), and the other kinds once each. */
export function seedV19(v19: Database, calls: number): void {
  const message = v19.prepare(
    "INSERT INTO messages (id, profile, base_url, api_id, mobile, content, units, created_at, updated_at) VALUES (?, 'p', 'http://x', 'bench', ?, ?, 1, ?, ?)",
  );
  const insert = v19.prepare(V19_INSERT);
  const link = v19.prepare('INSERT INTO exchange_messages (message_id, started_at, exchange_id) VALUES (?, ?, ?)');
  v19.transaction(() => {
    for (let i = 1; i <= calls; i++) {
      const at = T0 + i * 60_000;
      const mobile = `139${String(i).padStart(8, '0')}`;
      const content = `您好，客户${i}，您的订单SO-${String(i).padStart(6, '0')}已发货，请注意查收。`;
      const smsid = `SBXMX01MCD${String(3_000_000 + i)}`;
      message.run(i, mobile, content, at, at);
      const send = JSON.stringify({ account: 'bench', password: '[REDACTED]', mobile, content, format: 'json' });
      const accepted = JSON.stringify({ code: 2, msg: '提交成功', smsid, count: 1 });
      insert.run({
        ...base,
        messageId: i,
        startedAt: at,
        requestHeaders: headers(Buffer.byteLength(send)),
        requestBody: send,
        responseHeaders: headers(accepted.length, new Date(at).toUTCString()),
        responseBody: accepted,
        providerCode: 2,
      });
      for (const [k, state] of ['calling', 'calling', 'answered'].entries()) {
        const asked = JSON.stringify({ account: 'bench', password: '[REDACTED]', smsid, format: 'json' });
        const reply = JSON.stringify({ code: 2, msg: '查询成功', smsid, state, status: state === 'answered' ? '已接听' : '呼叫中', duration: k * 7 });
        insert.run({
          ...base,
          messageId: i,
          operation: 'status',
          url: 'http://127.0.0.1:33515/voice/status',
          startedAt: at + (k + 1) * 5_000,
          requestHeaders: headers(asked.length),
          requestBody: asked,
          responseHeaders: headers(Buffer.byteLength(reply), new Date(at + (k + 1) * 5_000).toUTCString()),
          responseBody: reply,
          providerCode: 2,
          timings: timings(1 + k / 100),
        });
      }
    }
    // A post of receipts naming two messages (stored once, linked to the second).
    const receipt = insert.run({
      ...base,
      messageId: 1,
      operation: 'receipt',
      url: 'http://127.0.0.1:8080/%5BREDACTED%5D',
      startedAt: T0 + 10_000_000,
      requestBody: '[{"smsid":"a","state":"busy"},{"smsid":"b","state":"busy"}]',
      responseBody: 'ok',
    });
    link.run(2, T0 + 10_000_000, receipt.lastInsertRowid);
    // No reply at all; an XML refusal; a captured exchange with its checks; bytes a tester must see exactly.
    insert.run({
      ...base,
      startedAt: T0 + 10_000_001,
      status: null,
      statusText: null,
      responseHeaders: null,
      errorKind: 'timeout',
      errorMessage: 'no answer in 5000 ms',
      errorMs: 5000,
    });
    insert.run({
      ...base,
      operation: 'balance',
      startedAt: T0 + 10_000_002,
      status: 400,
      statusText: 'Bad Request',
      responseBody: '<?xml version="1.0"?><SubmitResult><code>403</code><msg>模板未审核</msg></SubmitResult>',
      providerCode: 403,
    });
    insert.run({
      ...base,
      operation: 'tunnel',
      startedAt: T0 + 10_000_003,
      capture: JSON.stringify({ mode: 'forward', verdict: 'warn', checks: [{ check: 'signature', verdict: 'warn', code: 'unsigned', params: {} }] }),
      captureVerdict: 'warn',
    });
    insert.run({
      ...base,
      operation: 'raw',
      startedAt: T0 + 10_000_004,
      requestHeaders: '[["X-Trace","needle-4411"],["Accept-Language","zh-CN,zh;q=0.9"]]',
      requestBody: 'line one\r\nline two\ttab "quotes" \\ backslash \u0000 nul 😀 emoji',
      responseBody: '',
    });
  })();
}
