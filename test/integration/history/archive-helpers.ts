// What the archive tests share: a data directory with exchanges in past months, the app's services on
// it (on a manual clock), every exchange as the list gives them, and an archive run to its end.
import { mkdirSync, rmSync } from 'node:fs';
import { ManualClock } from '../../../main/clock';
import { createHandlers, type Handlers } from '../../../main/handlers';
import { SessionSecretStore } from '../../../main/secrets';
import { createServices, type Services } from '../../../main/services';
import { openStore } from '../../../main/store';
import { ARCHIVE_PAUSE_MS } from '../../../main/store/archive';
import type { Exchange, ExchangeRecord } from '../../../common/records';
import { tempHome } from '../../helpers/temp-home';

/** What a test opened, closed after it (newest first): each test file runs them in its afterEach. */
export const cleanups: Array<() => Promise<void> | void> = [];

export const BEIJING = 480;
export const DAY = 86_400_000;
/** Profile ids as Callout makes them. */
export const PROFILE_A = '6c1e2f0a-8b3d-4e5f-9a7b-1c2d3e4f5a6b';
export const PROFILE_B = 'd4c3b2a1-0f9e-4d8c-8b7a-6f5e4d3c2b1a';
/** 2026-06-01 00:00 in Beijing. */
export const JUNE = Date.UTC(2026, 5, 1) - BEIJING * 60_000;

export function exchange(startedAt: number, n: number): Exchange {
  return {
    operation: n % 3 === 0 ? 'status' : 'send',
    method: 'POST',
    url: `http://127.0.0.1/voice/${n % 3 === 0 ? 'status' : 'vm'}`,
    requestHeaders: [['Content-Type', 'application/json; charset=utf-8']],
    requestBody: JSON.stringify({ password: '[REDACTED]', mobile: '13800138000', content: `第${n}次通知 ticket-${n}` }),
    status: 200,
    statusText: 'OK',
    responseHeaders: [['Content-Type', 'application/json']],
    responseBody: `{"code":2,"msg":"提交成功","smsid":"sid-${n}"}`,
    error: null,
    startedAt,
    timings: { dnsMs: null, connectMs: 1, tlsMs: null, firstByteMs: 2, totalMs: 3 },
  };
}

/**
 * A data directory with one message a day from June to mid-November (Beijing time), each with its
 * send or status exchange; the first exchange of every month also names the next day's message.
 * `at`: the data directory to make (else a temporary one).
 */
export function seeded(days = 168, perDay = 1, at?: string): { dir: string; perMonth: Map<string, number> } {
  const home = at ? { dir: at, cleanup: () => rmSync(at, { recursive: true, force: true }) } : tempHome();
  if (at) mkdirSync(at, { recursive: true });
  cleanups.push(home.cleanup);
  const store = openStore(home.dir);
  const perMonth = new Map<string, number>();
  store.db.transaction(() => {
    const ids: number[] = [];
    for (let d = 0; d < days; d++) {
      const m = store.messages.insertPending({ profile: 'p', baseUrl: 'http://x', apiId: 'id', mobile: '13800138000', content: `第${d}天`, units: 1 });
      store.db.prepare('UPDATE messages SET created_at = ? WHERE id = ?').run(JUNE + d * DAY + 3_600_000, m.id);
      ids.push(m.id);
    }
    for (let d = 0; d < days; d++) {
      const at = JUNE + d * DAY + 3_600_000;
      const month = new Date(at + BEIJING * 60_000).toISOString().slice(0, 7);
      const first = !perMonth.has(month);
      perMonth.set(month, (perMonth.get(month) ?? 0) + perDay);
      // Through a profile most days (kept by its key, migration 0025: an archive must read it back).
      const profile = d % 5 === 4 ? null : d % 2 ? PROFILE_B : PROFILE_A;
      store.exchanges.insert(exchange(at, d), { messageIds: first && d + 1 < days ? [ids[d]!, ids[d + 1]!] : [ids[d]!], profile });
      // More status polls of the day's call, when asked for.
      for (let k = 1; k < perDay; k++) store.exchanges.insert(exchange(at + k * 1000, days + d * perDay + k), { messageId: ids[d]!, profile });
    }
  })();
  store.close();
  return { dir: home.dir, perMonth };
}

/** The app's services on `home`; `background`: with its background work (packing, finishing an archive's removal), as the app runs. */
export async function open(home: string, clock: ManualClock, background = false): Promise<{ services: Services; h: Handlers }> {
  const services = await createServices({
    home,
    clock,
    sandbox: false,
    receipts: 'on-demand',
    packExchanges: background,
    secrets: { store: new SessionSecretStore(), status: { kind: 'session', keychainAvailable: false, reason: 'test' } },
  });
  cleanups.push(() => services.close());
  return { services, h: createHandlers(services) };
}

/** Every exchange of the live store, oldest first, as the list gives them. */
export async function everyExchange(h: Handlers, archive?: string): Promise<ExchangeRecord[]> {
  const out: ExchangeRecord[] = [];
  let cursor: string | null = null;
  do {
    const page = await h['exchanges.list']({ limit: 1000, order: 'oldest', cursor, ...(archive ? { archive } : {}) });
    out.push(...page.rows);
    cursor = page.nextCursor;
  } while (cursor);
  return out;
}

/** Moves the clock on until the archive running ends. */
export async function finish(s: Services, clock: ManualClock): Promise<void> {
  for (let i = 0; i < 10_000 && s.archives.archiver.state().running; i++) await clock.advance(ARCHIVE_PAUSE_MS);
  await s.archives.archiver.finished();
}

export const strip = ({ archive: _archive, ...e }: ExchangeRecord) => e;
