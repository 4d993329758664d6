// An upgraded store's exchanges are packed, then indexed for search a call at a time, in the
// background by the app, on its clock: History → Storage says how far it is; closed mid-way, the next start goes on from there; every exchange
// reads the same throughout; a short-lived command (the CLI) leaves the work to the app.
import { afterEach, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { ManualClock } from '../../../main/clock';
import { createHandlers } from '../../../main/handlers';
import { SessionSecretStore } from '../../../main/secrets';
import { createServices, type Services } from '../../../main/services';
import { openDatabase } from '../../../main/store/database';
import { PACK_BATCH, PACK_PAUSE_MS } from '../../../main/store/exchange-packing';
import { tempHome } from '../../helpers/temp-home';
import { seedV19 } from '../../helpers/v19-store';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** A data directory holding a store written by schema 19 with `calls` calls (four exchanges each, and five more). */
function upgradedHome(calls: number): string {
  const home = tempHome();
  cleanups.push(home.cleanup);
  const db = openDatabase(join(home.dir, 'callout.db'), { targetVersion: 19 });
  seedV19(db, calls);
  db.close();
  return home.dir;
}

async function open(home: string, clock: ManualClock, packExchanges?: boolean): Promise<Services> {
  const services = await createServices({
    home,
    clock,
    sandbox: false,
    receipts: 'on-demand',
    packExchanges,
    secrets: { store: new SessionSecretStore(), status: { kind: 'session', keychainAvailable: false, reason: 'test' } },
  });
  cleanups.push(() => services.close());
  return services;
}

const handlers = (s: Services) => createHandlers(s);
const status = (s: Services) => handlers(s)['store.status'](undefined);
const everyExchange = (s: Services) => Array.from({ length: 4 * 300 + 5 }, (_, i) => s.exchanges.get(i + 1));

describe('packing the exchanges of an upgraded store', () => {
  it('runs a batch at a time on the clock, says how far it is, and goes on where it stopped after a restart', async () => {
    const home = upgradedHome(300);
    const total = 4 * 300 + 5;
    const clock = new ManualClock();
    let app = await open(home, clock);
    expect((await status(app)).packing).toEqual({ step: 'packing', done: 0, total });
    const before = everyExchange(app);
    expect(before.every((e) => e !== undefined)).toBe(true);
    const bytesBefore = (await status(app)).usage.bytes;

    await clock.advance(0);
    expect((await status(app)).packing).toEqual({ step: 'packing', done: PACK_BATCH, total });
    // Every exchange reads the same while the job is under way.
    expect(everyExchange(app)).toEqual(before);
    // The app is closed after the first batch: the next start goes on from there.
    await app.close();
    app = await open(home, clock);
    expect((await status(app)).packing).toEqual({ step: 'packing', done: PACK_BATCH, total });
    await clock.advance(0);
    expect((await status(app)).packing).toEqual({ step: 'packing', done: 2 * PACK_BATCH, total });
    // The last batch of packing; then the calls' words are indexed for search (migration 0021), a batch at a time too.
    await clock.advance(PACK_PAUSE_MS);
    expect((await status(app)).packing).toEqual({ step: 'indexing', done: 0, total });
    const found = async () => (await handlers(app)['exchanges.list']({ search: 'SBXMX01MCD3000007', order: 'oldest' })).rows.map((e) => e.id);
    const searched = await found();
    expect(searched).toHaveLength(4);
    await clock.advance(PACK_PAUSE_MS);
    const indexing = (await status(app)).packing!;
    expect(indexing).toMatchObject({ step: 'indexing', total });
    expect(indexing.done).toBeGreaterThanOrEqual(PACK_BATCH);
    expect(await found()).toEqual(searched);
    for (let i = 0; i < 10 && (await status(app)).packing; i++) await clock.advance(PACK_PAUSE_MS);
    await app.packing.done;
    expect(await found()).toEqual(searched);
    const after = await status(app);
    expect(after.packing).toBeNull();
    expect(everyExchange(app)).toEqual(before);
    // Retention counts what was captured, as before; the file holds far less.
    expect(after.usage.bytes).toBe(bytesBefore);
  });

  it('a short-lived command leaves the packing to the app', async () => {
    const home = upgradedHome(10);
    const clock = new ManualClock();
    const cli = await open(home, clock, false);
    await clock.advance(60_000);
    expect((await status(cli)).packing).toEqual({ step: 'packing', done: 0, total: 45 });
  });
});
