/**
 * The sandbox provider's HTTP server (node:http, 127.0.0.1 only).
 *
 * Choices where the spec says "not shown":
 * - Provider result codes (2, 400, 401, 402, 403, 404, 500) are sent with HTTP 200; the code is in
 *   the body. HTTP statuses other than 200 come only from outside the voice service: 401 from the
 *   signature gateway, 413 (body over 64 KiB), 404 (unknown path), 405 (not POST), and the faults
 *   http500 (HTTP 500 with {code: 500, msg}) and html (HTTP 502 page from a "proxy").
 * - `format: 'xml'` gives `<?xml version="1.0" encoding="utf-8"?>` and a root element per operation
 *   (SubmitResult, StatusResult, GetNumResult) holding the same fields as the JSON reply, in order;
 *   null fields are empty elements. Any other format value gives JSON.
 * - Status reply fields: smsid, state (our normalised CallState), status (Chinese label), duration
 *   (whole seconds), attempts, submittedAt, calledAt, answeredAt, endedAt (ISO or null). A call stays
 *   'calling' while the callee listens (status '通话中', answeredAt set) and becomes 'answered' when it
 *   ends, so a final state always comes with its final duration.
 * - Balance reply field: `num`.
 * - Signature gateway failure: HTTP 401 `{"message":"client request can't be validated"}` (APISIX).
 * - Requests: as the dialect asks for them (its paths with their queries, method, encoding, field
 *   names, the key in a field, a header or only the signature); the spec's JSON POSTs without one.
 *
 * Order of processing for the voice operations: body (413 over 64 KiB) → path (404) → method (405) → network
 * faults (delay, reset, html) → signature gateway when on (401) → provider faults (timeout, http500,
 * code) → the operation (malformed body → code 400).
 */

import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { formatHttpDate, signatureFailureBody, SIGNATURE_FAILURE_STATUS, verifyRequest } from '../signing';
import { DEFAULT_REVIEW_DELAY_MS, DEMO_ACCOUNT } from './demo';
import { FaultBoard, parseFault } from './faults';
import { MAX_BODY_BYTES, parseParams, PROXY_ERROR_PAGE, readBody, sendHtml, sendJson, sendXml, toXml, XML_ROOTS } from './http-io';
import { redactBodyText, redactDeep, redactParams, redactPath } from './redact';
import { Scheduler } from './scheduler';
import type { ReceivedRequest, Sandbox, SandboxFault, SandboxOp, SandboxOptions, SandboxSettings, SandboxSignatureMode } from './types';
import { MESSAGES, VoiceService, type ProviderReply } from './voice-service';
import { builtinDialect, checkDialect, keyCarriers, operationOfRequest, readRequestFields, requestShape, type Dialect } from '../../common/dialects';
import { receiptFactsOf, renderReply, speaksSpec } from './dialect-shape';
import { ReceiptPusher } from './receipt-push';

const SIGNATURE_MODES: readonly SandboxSignatureMode[] = ['off', 'spec', 'apisix', 'any'];

/** The request log keeps the most recent entries only (a sandbox may run for days inside the app). */
const MAX_LOGGED_REQUESTS = 10_000;

const LOOPBACK_HOSTNAMES = new Set(['127.0.0.1', 'localhost', '[::1]']);

function isSignatureMode(x: unknown): x is SandboxSignatureMode {
  return typeof x === 'string' && (SIGNATURE_MODES as readonly string[]).includes(x);
}

function validTimeScale(x: unknown): x is number {
  return typeof x === 'number' && Number.isFinite(x) && x >= 0;
}

function checkTimeScale(x: number): void {
  if (!validTimeScale(x)) throw new RangeError('timeScale must be a finite number >= 0');
}

function validReviewDelay(x: unknown): x is number {
  return typeof x === 'number' && Number.isFinite(x) && x >= 0;
}

function checkReviewDelay(x: number): void {
  if (!validReviewDelay(x)) throw new RangeError('reviewDelayMs must be a finite number >= 0');
}

function checkClockOffset(seconds: number): void {
  if (typeof seconds !== 'number' || !Number.isFinite(seconds)) throw new RangeError('clock offset must be a finite number of seconds');
}

function isLoopbackAuthority(value: string | undefined, withScheme: boolean): boolean {
  if (value === undefined) return false;
  try {
    return LOOPBACK_HOSTNAMES.has(new URL(withScheme ? value : `http://${value}`).hostname);
  } catch {
    return false;
  }
}

export async function startSandbox(opts: SandboxOptions = {}): Promise<Sandbox> {
  const timeScale = opts.timeScale ?? 1;
  checkTimeScale(timeScale);
  const port = opts.port ?? 0;
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new RangeError('port must be an integer from 0 to 65535');
  let signatureMode: SandboxSignatureMode = opts.signature ?? 'off';
  if (!isSignatureMode(signatureMode)) throw new RangeError(`signature must be one of ${SIGNATURE_MODES.join(', ')}`);
  let clockOffsetSeconds = opts.clockOffsetSeconds ?? 0;
  checkClockOffset(clockOffsetSeconds);
  const reviewDelayMs = opts.reviewDelayMs ?? DEFAULT_REVIEW_DELAY_MS;
  checkReviewDelay(reviewDelayMs);

  const scheduler = new Scheduler(timeScale, opts.clock);
  let dialect: Dialect | null = opts.dialect ?? null;
  let receiptsUrl: string | null = null;
  const checkReceiptsUrl = (url: string | null): string | null => {
    if (url === null) return null;
    const u = new URL(url);
    if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new RangeError('receiptsUrl must be an http(s) URL');
    return u.toString();
  };
  receiptsUrl = checkReceiptsUrl(opts.receiptsUrl ?? null);
  const pusher = new ReceiptPusher(
    scheduler,
    () => dialect,
    () => receiptsUrl,
  );
  const service = new VoiceService({
    scheduler,
    random: opts.random ?? Math.random,
    reviewDelayMs,
    demoTemplates: opts.demoTemplates ?? true,
    onCallEnded: (call) => pusher.ended(receiptFactsOf(call)),
  });
  const accounts = opts.accounts && opts.accounts.length > 0 ? opts.accounts : [{ ...DEMO_ACCOUNT }];
  for (const a of accounts) service.addAccount(a);
  const first = accounts[0] ?? DEMO_ACCOUNT;
  const demo = { apiId: first.apiId, apiKey: first.apiKey };

  const faults = new FaultBoard();
  const log: ReceivedRequest[] = [];
  let requestSeq = 0;
  const sockets = new Set<Socket>();
  let closing: Promise<void> | null = null;
  let baseUrl = '';

  const setFault = (f: SandboxFault): void => {
    const parsed = parseFault(f);
    if (!parsed.ok) throw new TypeError(`invalid sandbox fault: ${parsed.error}`);
    faults.add(parsed.fault);
  };
  const setSignatureMode = (m: SandboxSignatureMode): void => {
    if (!isSignatureMode(m)) throw new RangeError(`signature mode must be one of ${SIGNATURE_MODES.join(', ')}`);
    signatureMode = m;
  };
  const setClockOffset = (seconds: number): void => {
    checkClockOffset(seconds);
    clockOffsetSeconds = seconds;
  };
  const setTimeScale = (scale: number): void => {
    checkTimeScale(scale);
    scheduler.timeScale = scale;
  };
  const setReviewDelay = (ms: number): void => {
    checkReviewDelay(ms);
    service.reviewDelayMs = ms;
  };
  const settings = (): SandboxSettings => ({
    timeScale: scheduler.timeScale,
    signatureMode,
    clockOffsetSeconds,
    reviewDelayMs: service.reviewDelayMs,
    dialect: dialect?.id ?? dialect?.name ?? 'spec',
  });

  function record(entry: ReceivedRequest): void {
    log.push(entry);
    if (log.length > MAX_LOGGED_REQUESTS) log.splice(0, log.length - MAX_LOGGED_REQUESTS);
  }

  function answer(res: ServerResponse, entry: ReceivedRequest, op: SandboxOp, reply: ProviderReply, asked: 'json' | 'xml' | null): void {
    entry.response = { httpStatus: 200, code: reply.code };
    if (typeof reply.smsid === 'string' && reply.code === 2 && op === 'send') entry.response.smsid = reply.smsid;
    if (dialect && !speaksSpec(dialect)) {
      // The provider this dialect describes: its field names, values, shape and charset.
      const r = renderReply(dialect, op, reply, asked);
      res.writeHead(200, { 'Content-Type': r.contentType, 'Content-Length': r.body.length });
      res.end(r.body);
      return;
    }
    if (entry.format === 'xml') sendXml(res, 200, toXml(XML_ROOTS[op], reply));
    else sendJson(res, 200, reply);
  }

  /** Everything a tester may want to see, minus the API Keys (also scrubbed from call texts). */
  function adminState(): Record<string, unknown> {
    return redactDeep(
      {
        baseUrl,
        ...settings(),
        receiptsUrl,
        faults: faults.list(),
        accounts: service.accountSummaries(),
        templates: service.allTemplates(),
        calls: service.listCalls(),
        stats: service.stats(),
      },
      service.allKeys(),
    );
  }

  async function handleVoice(req: IncomingMessage, res: ServerResponse, rawUrl: string): Promise<void> {
    const read = await readBody(req);
    if (!read.ok && read.reason === 'aborted') return;
    const keys = service.allKeys();
    // The fields a key travels in: blanked in the log whatever they hold (a wrong key too).
    const keyFields = keyCarriers(dialect).fields;
    const contentType = req.headers['content-type'];
    const headerText = (name: string): string | undefined => {
      const v = req.headers[name];
      return Array.isArray(v) ? v[0] : v;
    };
    requestSeq += 1;
    const entry: ReceivedRequest = {
      seq: requestSeq,
      time: new Date(scheduler.now()).toISOString(),
      method: req.method ?? 'GET',
      path: redactPath(rawUrl, keys, keyFields),
      op: null,
      contentType: contentType ?? null,
      format: 'json',
      body: null,
      bodyText: null,
      mobile: null,
    };
    record(entry);

    if (!read.ok) {
      entry.bodyError = 'too-large';
      entry.response = { httpStatus: 413, code: null };
      sendJson(res, 413, { error: 'payload_too_large', message: `request body over ${MAX_BODY_BYTES} bytes` }, { Connection: 'close' });
      return;
    }
    // The fields as the dialect sends them: in the body (JSON or form) and in the query (a GET, or a dialect that asks so).
    const url = new URL(rawUrl.startsWith('/') ? rawUrl : '/', baseUrl);
    if (read.body.length > 0) entry.bodyText = redactBodyText(read.body.subarray(0, 4096).toString('utf8'), contentType, keys, keyFields);
    const parsed = parseParams(read.body, contentType);
    const sent: Record<string, unknown> = { ...Object.fromEntries(url.searchParams), ...(parsed.ok ? parsed.params : {}) };
    const op: SandboxOp | null = operationOfRequest(dialect, url, baseUrl, sent);
    entry.op = op;
    const shape = requestShape(dialect, op ?? 'send');
    // Read under the provider's names, answered by Callout's (the voice service speaks the spec's).
    // A body's fields from the body only (a key put in the URL of a POST is not read there), a query's from the query.
    const fields = readRequestFields(shape, shape.body === 'query' ? Object.fromEntries(url.searchParams) : parsed.ok ? parsed.params : {}, headerText);
    const params: Record<string, unknown> = {};
    for (const [from, to] of [
      ['account', 'account'],
      ['password', 'password'],
      ['mobile', 'mobile'],
      ['content', 'content'],
      ['id', 'smsid'],
      ['format', 'format'],
    ] as const) {
      if (fields[from] !== undefined) params[to] = fields[from];
    }
    let asked: 'json' | 'xml' | null = null;
    if (parsed.ok) {
      entry.body = redactParams(read.body.length > 0 ? parsed.params : sent, keys, keyFields);
      const mobile = params.mobile;
      if (typeof mobile === 'string' || typeof mobile === 'number') entry.mobile = String(mobile);
      if (typeof params.format === 'string' && params.format.trim().toLowerCase() === 'xml') entry.format = 'xml';
      if (typeof params.format === 'string') asked = params.format.trim().toLowerCase() === 'xml' ? 'xml' : 'json';
    } else {
      entry.bodyError = 'malformed';
    }

    // A provider that only pushes has no status query at all.
    if (op === null || (op === 'status' && dialect?.status === null)) {
      entry.response = { httpStatus: 404, code: null };
      sendJson(res, 404, { error: 'not_found', message: `no such endpoint: ${entry.method} ${url.pathname}` });
      return;
    }
    if (req.method !== shape.method) {
      entry.response = { httpStatus: 405, code: null };
      sendJson(res, 405, { error: 'method_not_allowed', message: `use ${shape.method}` }, { Allow: shape.method });
      return;
    }

    // Faults of the network in front of the provider (delay, reset, html) act before the signature
    // gateway; the provider's own answers (http500, code) and the timeout act behind it, so a request
    // the gateway rejects does not use them up.
    const taken = faults.take(op);
    const fault = taken?.fault ?? null;
    if (fault) {
      entry.fault = fault.kind;
      switch (fault.kind) {
        case 'delay':
          await scheduler.sleep(fault.delayMs);
          if (closing) return;
          break;
        case 'reset':
          req.socket.destroy();
          return;
        case 'html':
          entry.response = { httpStatus: 502, code: null };
          sendHtml(res, 502, PROXY_ERROR_PAGE);
          return;
        default:
          break;
      }
    }
    const hang = fault?.kind === 'timeout';

    const keyInSignature = shape.key === 'signature';
    if (signatureMode !== 'off' || keyInSignature) {
      let verdict: NonNullable<ReceivedRequest['signature']>;
      if (!rawUrl.startsWith('/')) {
        verdict = { valid: false, reason: 'bad-url', variant: null, keyId: null, skewSeconds: null };
      } else {
        try {
          const v = verifyRequest({
            method: req.method ?? 'POST',
            url: baseUrl + rawUrl,
            host: headerText('host'),
            date: headerText('date'),
            authorization: headerText('authorization'),
            lookupKey: (keyId) => service.keyOf(keyId),
            now: new Date(scheduler.now() + clockOffsetSeconds * 1000),
            variant: signatureMode === 'off' ? 'any' : signatureMode,
          });
          verdict = { valid: v.valid, reason: v.reason, variant: v.variant, keyId: v.keyId, skewSeconds: v.skewSeconds };
        } catch {
          verdict = { valid: false, reason: 'bad-url', variant: null, keyId: null, skewSeconds: null };
        }
      }
      entry.signature = verdict;
      if (!verdict.valid) {
        // The gateway stops the request: it never reaches the voice service.
        if (fault && (fault.kind === 'http500' || fault.kind === 'code' || fault.kind === 'timeout')) {
          taken?.undo();
          delete entry.fault;
        }
        entry.response = { httpStatus: SIGNATURE_FAILURE_STATUS, code: null };
        sendJson(res, SIGNATURE_FAILURE_STATUS, signatureFailureBody());
        return;
      }
      // The signature proves the key: the voice service is told the account's own.
      if (keyInSignature && verdict.keyId !== null) params.password = service.keyOf(verdict.keyId) ?? '';
    }

    if (fault?.kind === 'http500') {
      entry.response = { httpStatus: 500, code: 500 };
      sendJson(res, 500, { code: 500, msg: MESSAGES[500] });
      return;
    }
    if (fault?.kind === 'code') {
      answer(res, entry, op, { code: fault.code, msg: MESSAGES[fault.code] }, asked);
      return;
    }

    const reply: ProviderReply = parsed.ok ? service[op](params) : { code: 400, msg: `${MESSAGES[400]}：请求体无法解析` };
    if (hang) {
      // The request reached the provider (a valid send placed its call), but no answer ever leaves.
      entry.withheld = { code: reply.code };
      if (typeof reply.smsid === 'string' && reply.code === 2 && op === 'send') entry.withheld.smsid = reply.smsid;
      return;
    }
    answer(res, entry, op, reply, asked);
  }

  async function handleAdmin(req: IncomingMessage, res: ServerResponse, pathname: string): Promise<void> {
    // No auth, loopback only: refuse requests that name another host (DNS rebinding) or come from a web page.
    const origin = req.headers.origin;
    if (!isLoopbackAuthority(req.headers.host, false) || (origin !== undefined && !isLoopbackAuthority(origin, true))) {
      sendJson(res, 403, { error: 'forbidden', message: 'the sandbox admin endpoints answer loopback clients only' });
      return;
    }
    const route = `${req.method ?? ''} ${pathname}`;
    if (route === 'GET /__sandbox/state') return sendJson(res, 200, adminState());
    if (route === 'GET /__sandbox/requests') return sendJson(res, 200, structuredClone(log));
    if (route === 'GET /__sandbox/receipts') return sendJson(res, 200, pusher.log());

    const posts = ['/__sandbox/faults', '/__sandbox/templates', '/__sandbox/templates/approve', '/__sandbox/balance', '/__sandbox/settings'];
    if (!posts.includes(pathname)) return sendJson(res, 404, { error: 'not_found', message: `no such admin endpoint: ${route}` });
    if (req.method !== 'POST') return sendJson(res, 405, { error: 'method_not_allowed', message: 'use POST' }, { Allow: 'POST' });

    const read = await readBody(req);
    if (!read.ok) {
      if (read.reason === 'too-large') sendJson(res, 413, { error: 'payload_too_large' }, { Connection: 'close' });
      return;
    }
    let body: Record<string, unknown>;
    try {
      const v: unknown = JSON.parse(read.body.toString('utf8'));
      if (typeof v !== 'object' || v === null || Array.isArray(v)) throw new TypeError('not an object');
      body = v as Record<string, unknown>;
    } catch {
      return sendJson(res, 400, { error: 'bad_request', message: 'the body must be a JSON object' });
    }
    const bad = (message: string): void => sendJson(res, 400, { error: 'bad_request', message });
    const unknownAccount = (apiId: unknown): boolean => {
      if (typeof apiId === 'string' && service.hasAccount(apiId)) return false;
      sendJson(res, 404, { error: 'not_found', message: `no sandbox account ${String(apiId)}` });
      return true;
    };

    switch (pathname) {
      case '/__sandbox/faults': {
        if (body.clear === true) {
          faults.clear();
          return sendJson(res, 200, { ok: true, faults: faults.list() });
        }
        const parsed = parseFault(body);
        if (!parsed.ok) return bad(parsed.error);
        faults.add(parsed.fault);
        return sendJson(res, 200, { ok: true, faults: faults.list() });
      }
      case '/__sandbox/templates': {
        if (unknownAccount(body.apiId)) return;
        if (typeof body.content !== 'string') return bad('content must be a string');
        if (body.approved !== undefined && typeof body.approved !== 'boolean') return bad('approved must be a boolean');
        if (body.name !== undefined && typeof body.name !== 'string') return bad('name must be a string');
        try {
          const template = service.addTemplate(body.apiId as string, body.content, {
            ...(body.approved !== undefined ? { approved: body.approved } : {}),
            ...(body.name !== undefined ? { name: body.name } : {}),
          });
          return sendJson(res, 200, { ok: true, template });
        } catch (e) {
          return bad(e instanceof Error ? e.message : 'invalid template');
        }
      }
      case '/__sandbox/templates/approve': {
        if (unknownAccount(body.apiId)) return;
        if (typeof body.id !== 'string') return bad('id must be a string');
        try {
          return sendJson(res, 200, { ok: true, template: service.approveTemplate(body.apiId as string, body.id) });
        } catch (e) {
          return sendJson(res, 404, { error: 'not_found', message: e instanceof Error ? e.message : 'no such template' });
        }
      }
      case '/__sandbox/balance': {
        if (unknownAccount(body.apiId)) return;
        const whole = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;
        // {units}: set the balance; {add}: top it up.
        if ((body.units === undefined) === (body.add === undefined)) return bad('give either units (set) or add (top up)');
        if (body.units !== undefined && !whole(body.units)) return bad('units must be a non-negative integer');
        if (body.add !== undefined && !whole(body.add)) return bad('add must be a non-negative integer');
        try {
          if (body.units !== undefined) service.setBalance(body.apiId as string, body.units as number);
          else service.topUp(body.apiId as string, body.add as number);
        } catch (e) {
          return bad(e instanceof Error ? e.message : 'invalid balance');
        }
        return sendJson(res, 200, { ok: true, accounts: service.accountSummaries() });
      }
      default: {
        // /__sandbox/settings
        if (body.signature !== undefined && !isSignatureMode(body.signature)) {
          return bad(`signature must be one of ${SIGNATURE_MODES.join(', ')}`);
        }
        if (body.clockOffsetSeconds !== undefined && (typeof body.clockOffsetSeconds !== 'number' || !Number.isFinite(body.clockOffsetSeconds))) {
          return bad('clockOffsetSeconds must be a finite number');
        }
        if (body.timeScale !== undefined && !validTimeScale(body.timeScale)) return bad('timeScale must be a finite number >= 0');
        if (body.reviewDelayMs !== undefined && !validReviewDelay(body.reviewDelayMs)) return bad('reviewDelayMs must be a finite number >= 0');
        let nextDialect = dialect;
        if (body.dialect !== undefined) {
          const d = typeof body.dialect === 'string' ? builtinDialect(body.dialect) : checkDialect(body.dialect);
          const ok = d && ('ok' in d ? (d.ok ? d.dialect : undefined) : d);
          if (!ok) return bad('dialect must be a built-in dialect id or a valid dialect');
          nextDialect = ok;
        }
        let nextUrl = receiptsUrl;
        if (body.receiptsUrl !== undefined) {
          try {
            nextUrl = checkReceiptsUrl(body.receiptsUrl === null ? null : String(body.receiptsUrl));
          } catch {
            return bad('receiptsUrl must be an http(s) URL or null');
          }
        }
        if (body.signature !== undefined) signatureMode = body.signature;
        if (body.clockOffsetSeconds !== undefined) clockOffsetSeconds = body.clockOffsetSeconds;
        if (body.timeScale !== undefined) setTimeScale(body.timeScale as number);
        if (body.reviewDelayMs !== undefined) setReviewDelay(body.reviewDelayMs as number);
        dialect = nextDialect;
        receiptsUrl = nextUrl;
        return sendJson(res, 200, { ok: true, ...settings(), receiptsUrl });
      }
    }
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const rawUrl = req.url ?? '/';
    let pathname: string;
    try {
      pathname = new URL(rawUrl, 'http://127.0.0.1').pathname;
    } catch {
      sendJson(res, 400, { error: 'bad_request', message: 'unreadable request target' });
      return;
    }
    if (pathname === '/__sandbox' || pathname.startsWith('/__sandbox/')) return handleAdmin(req, res, pathname);
    return handleVoice(req, res, rawUrl);
  }

  const server = createServer((req, res) => {
    // The gateway's clock, offset included, is what its Date header says (clock probes read it).
    res.setHeader('Date', formatHttpDate(new Date(scheduler.now() + clockOffsetSeconds * 1000)));
    handle(req, res).catch(() => {
      // Never crash on bad input: an unexpected error is the provider's "internal error".
      if (res.headersSent || res.destroyed) res.destroy();
      else sendJson(res, 500, { code: 500, msg: MESSAGES[500] });
    });
  });
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  server.on('clientError', (_err, socket) => {
    if (socket.writable) socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n');
    else socket.destroy();
  });

  await new Promise<void>((resolve, reject) => {
    const onError = (err: Error): void => {
      scheduler.stop();
      reject(err);
    };
    server.once('error', onError);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', onError);
      resolve();
    });
  });
  const address = server.address();
  const boundPort = typeof address === 'object' && address !== null ? address.port : port;
  baseUrl = `http://127.0.0.1:${boundPort}`;

  return {
    baseUrl,
    port: boundPort,
    demo,
    addAccount: (a) => service.addAccount(a),
    setBalance: (apiId, units) => service.setBalance(apiId, units),
    addTemplate: (apiId, content, o) => service.addTemplate(apiId, content, o),
    approveTemplate: (apiId, id) => service.approveTemplate(apiId, id),
    topUp: (apiId, units) => service.topUp(apiId, units),
    templates: (apiId) => service.templates(apiId),
    accounts: () => service.accountSummaries(),
    setFault,
    clearFaults: () => faults.clear(),
    faults: () => faults.list(),
    setSignatureMode,
    setClockOffset,
    setTimeScale,
    setReviewDelay,
    settings,
    requests: (limit) => structuredClone(limit === undefined ? log : log.slice(-Math.max(0, limit))),
    requestCount: () => requestSeq,
    setDialect: (d) => {
      dialect = d;
    },
    setReceiptsUrl: (url) => {
      receiptsUrl = checkReceiptsUrl(url);
    },
    pushedReceipts: () => pusher.log(),
    calls: () => service.listCalls(),
    stats: () => service.stats(),
    close: () => {
      if (closing) return closing;
      scheduler.stop();
      pusher.stop();
      closing = new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
        for (const s of sockets) s.destroy();
      });
      return closing;
    },
  };
}
