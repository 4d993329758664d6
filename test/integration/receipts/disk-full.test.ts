// A full disk when a receipt arrives: the listener must not acknowledge a post it could not store
// (503, so the provider sends it again), and the post sent again once there is room is kept and
// applied. On a real 3 MB tmpfs holding the data directory.
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it, onTestFinished } from 'vitest';
import { mountSmallDisk, type SmallDisk } from '../../helpers/small-disk';
import { closeStored, storedIn } from '../../helpers/stored';
import { OTP, rehearsal } from '../dialects/helpers';

const disk = mountSmallDisk(3);
const refused = 'refused' in disk ? disk.refused : null;
if (refused) console.warn(`full-disk receipt tests skipped: ${refused}`);

describe.skipIf(refused !== null)('a receipt on a full disk (3 MB tmpfs)', () => {
  const d = disk as SmallDisk;
  afterEach(() => d.free());
  afterAll(() => d.unmount());

  it('is answered 503 and not kept; sent again once there is room, it is kept and applied', async () => {
    const r = await rehearsal({ profileDialect: { builtin: 'spec' }, follow: 'receipts', home: join(d.dir, 'home') });
    r.sandbox.setReceiptsUrl(null);
    const url = r.profile.receipts.url!;
    const sent = await r.call('messages.send', { profileId: r.profile.id, mobile: '13800138008', content: OTP });
    const id = sent.message.id;
    const before = r.services.sent.detail(id).message;
    // What was kept, read through a connection of the test's own (opened while there is room).
    const stored = storedIn(r.home);
    onTestFinished(closeStored);
    const receipts = () => (stored.db.prepare("SELECT count(*) AS n FROM exchanges WHERE operation = 'receipt'").get() as { n: number }).n;
    const body = JSON.stringify([{ smsid: sent.message.smsid, state: 'answered', duration: 7, note: 'x'.repeat(8000) }]);
    const postIt = () => fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body });

    d.fill();
    const full = await postIt();
    expect(full.status).toBe(503);
    expect(Number(full.headers.get('retry-after'))).toBeGreaterThan(0);
    d.free();
    expect(receipts()).toBe(0);
    expect(r.services.sent.detail(id).message).toEqual(before);

    const again = await postIt();
    expect(again.status).toBe(200);
    expect(receipts()).toBe(1);
    expect(r.services.sent.detail(id).message).toMatchObject({ state: 'answered', duration: 7 });
  });
});
