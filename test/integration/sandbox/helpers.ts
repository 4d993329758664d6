/** Shared helpers for the sandbox provider's real-HTTP tests (127.0.0.1 only). */

import { afterEach } from 'vitest';
import type { ManualClock } from '../../../main/clock';
import { startSandbox, type Sandbox, type SandboxOptions } from '../../../main/sandbox';
import { builtinDialect, type Dialect } from '../../../common/dialects';
import type { ProviderEndpoint } from '../../../main/voice/client';

/** 1000x faster than real time: a 6 s ring takes 6 ms. */
export const FAST = 0.001;

/** Texts that match the approved demo templates. */
export const TEXT = {
  /** '您的验证码是【变量】，5分钟内有效。' → 18 characters, 1 unit, 6 s of speech. */
  code: '您的验证码是1234，5分钟内有效。',
  /** '您好，【变量】，您的订单【变量】已发货，请注意查收。' */
  shipped: '您好，张三，您的订单A1001已发货，请注意查收。',
  /** '【变量】告警：【变量】，请立即处理。' with a long second value. */
  alarm: (detail: string) => `数据库告警：${detail}，请立即处理。`,
  /** Matches the demo template that is still under review. */
  booking: '尊敬的李四，您预约的体检服务将于明天上午9点开始。',
} as const;

const open: Sandbox[] = [];

/** Starts a sandbox that is closed after the current test, whatever happens. */
export async function sandbox(opts: SandboxOptions = {}): Promise<Sandbox> {
  const sb = await startSandbox({ timeScale: FAST, ...opts });
  open.push(sb);
  return sb;
}

afterEach(async () => {
  await Promise.all(open.splice(0).map((sb) => sb.close()));
});

export interface Reply {
  status: number;
  contentType: string | null;
  text: string;
  /** Parsed JSON, or undefined when the body is not JSON. */
  json: Record<string, unknown> | undefined;
}

export async function request(
  sb: Sandbox,
  path: string,
  init: { method?: string; body?: string; headers?: Record<string, string>; signal?: AbortSignal } = {},
): Promise<Reply> {
  const res = await fetch(sb.baseUrl + path, {
    method: init.method ?? 'POST',
    headers: init.headers ?? {},
    ...(init.body !== undefined ? { body: init.body } : {}),
    ...(init.signal ? { signal: init.signal } : {}),
  });
  const text = await res.text();
  let json: Record<string, unknown> | undefined;
  try {
    json = JSON.parse(text) as Record<string, unknown>;
  } catch {
    json = undefined;
  }
  return { status: res.status, contentType: res.headers.get('content-type'), text, json };
}

/** POST a JSON body. */
export function post(sb: Sandbox, path: string, body: unknown, extra: { headers?: Record<string, string>; signal?: AbortSignal } = {}): Promise<Reply> {
  return request(sb, path, {
    body: JSON.stringify(body),
    headers: { 'Content-Type': 'application/json', ...(extra.headers ?? {}) },
    ...(extra.signal ? { signal: extra.signal } : {}),
  });
}

export function creds(sb: Sandbox): { account: string; password: string } {
  return { account: sb.demo.apiId, password: sb.demo.apiKey };
}

export async function send(sb: Sandbox, mobile: string, content: string = TEXT.code, signal?: AbortSignal): Promise<Reply> {
  return post(sb, '/voice/vm', { ...creds(sb), mobile, content }, signal ? { signal } : {});
}

export async function balance(sb: Sandbox): Promise<number> {
  const r = await post(sb, '/voice/balance', creds(sb));
  return r.json?.num as number;
}

export async function status(sb: Sandbox, smsid: string): Promise<Record<string, unknown>> {
  const r = await post(sb, '/voice/status', { ...creds(sb), smsid });
  if (r.json === undefined) throw new Error(`status reply is not JSON: ${r.text}`);
  return r.json;
}

const FINAL = new Set(['answered', 'no_answer', 'busy', 'rejected', 'powered_off', 'unreachable', 'invalid_number', 'failed']);

/** Polls /voice/status until the call reaches a final state. */
export async function untilFinal(sb: Sandbox, smsid: string, timeoutMs = 5000): Promise<Record<string, unknown>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const s = await status(sb, smsid);
    if (FINAL.has(String(s.state))) return s;
    if (Date.now() > deadline) throw new Error(`call ${smsid} not final after ${timeoutMs} ms: ${JSON.stringify(s)}`);
    // Real time: a poll interval while the sandbox (a real HTTP server on the system clock, sped up by its time scale) runs the call; the loop is bounded by its deadline.
    await sleep(5);
  }
}

/**
 * On a sandbox running on a manual clock: moves the clock from timer to timer until `check` holds.
 * Fails when no timer is left before `limitMs` of sandbox time (what it waits for never comes).
 */
export async function advanceUntil(clock: ManualClock, check: () => boolean, what: string, limitMs = 3_600_000): Promise<void> {
  const end = clock.now() + limitMs;
  while (!check()) {
    const next = clock.nextAt();
    if (next === null || next > end) throw new Error(`${what}: not reached, and no timer is left before the limit`);
    await clock.advanceTo(next);
  }
}

/** On a manual clock: runs the call to its final state, then reads /voice/status as a client would. */
export async function finalOn(clock: ManualClock, sb: Sandbox, smsid: string): Promise<Record<string, unknown>> {
  await advanceUntil(clock, () => FINAL.has(sb.calls().find((c) => c.smsid === smsid)?.state ?? ''), `call ${smsid} final`);
  return status(sb, smsid);
}

export async function waitFor(check: () => boolean, timeoutMs = 5000, what = 'condition'): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    // Real time: a poll interval while the sandbox (a real HTTP server on the system clock, sped up by its time scale) runs the call; the loop is bounded by its deadline.
    await sleep(5);
  }
}

/** A real-time pause, for polling the sandbox over HTTP (each caller says why). */
export function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

/** A client's endpoint for a sandbox account, reading (and asking) with a dialect: a built-in one's id, or a dialect. */
export function dialectEndpoint(baseUrl: string, apiId: string, apiKey: string, dialect: string | Dialect, format: 'json' | 'xml' = 'json'): ProviderEndpoint {
  return {
    profile: 'p',
    baseUrl,
    apiId,
    apiKey,
    signing: null,
    connectTimeoutMs: 2000,
    totalTimeoutMs: 5000,
    format,
    dialect: typeof dialect === 'string' ? builtinDialect(dialect)! : dialect,
  };
}
