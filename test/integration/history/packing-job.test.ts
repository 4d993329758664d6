// An upgraded store's exchanges are packed in the background by the app, on its clock: History →
// Storage says how far it is; closed mid-way, the next start goes on from there; every exchange
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

const status = (s: Services) => createHandlers(s)['store.status'](undefined);
const everyExchange = (s: Services) => Array.from({ length: 4 * 300 + 5 }, (_, i) => s.exchanges.get(i + 1));

describe('packing the exchanges of an upgraded store', () => {
  it('runs a batch at a time on the clock, says how far it is, and goes on where it stopped after a restart', async () => {
    const home = upgradedHome(300);
    const total = 4 * 300 + 5;
    const clock = new ManualClock();
    let app = await open(home, clock);
    expect((await status(app)).packing).toEqual({ done: 0, total });
    const before = everyExchange(app);
    expect(before.every((e) => e !== undefined)).toBe(true);
    const bytesBefore = (await status(app)).usage.bytes;

    await clock.advance(0);
    expect((await status(app)).packing).toEqual({ done: PACK_BATCH, total });
    // Every exchange reads the same while the job is under way.
    expect(everyExchange(app)).toEqual(before);
    // The app is closed after the first batch: the next start goes on from there.
    await app.close();
    app = await open(home, clock);
    expect((await status(app)).packing).toEqual({ done: PACK_BATCH, total });
    await clock.advance(0);
    expect((await status(app)).packing).toEqual({ done: 2 * PACK_BATCH, total });
    await clock.advance(PACK_PAUSE_MS);
    await app.packing.done;
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
    expect((await status(cli)).packing).toEqual({ done: 0, total: 45 });
  });
});
