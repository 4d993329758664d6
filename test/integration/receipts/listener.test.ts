// The receipt listener under hostile input: only POSTs to its path secret are heard, bodies are
// bounded, unreadable posts are refused (and kept), unknown IDs are acknowledged (and kept), one
// profile never receives for another, and the secret is never stored. A post is acknowledged only
// once it is stored (a locked database gets 503, and the post sent again is applied once), and
// every receipt of a post within the size limit is read.
import http from 'node:http';
import { existsSync, statSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { describe, expect, it, onTestFinished } from 'vitest';
import iconv from 'iconv-lite';
import Database from 'better-sqlite3';
import { builtinDialect } from '../../../common/dialects';
import { MAX_RECEIPT_BYTES } from '../../../main/receipts/listener';
import { databasePath, type Store } from '../../../main/store';
import { closeStored, exchangeRows, storedIn } from '../../helpers/stored';
import { OTP, rehearsal, ended } from '../dialects/helpers';

async function post(url: string, body: string | Buffer, type = 'application/json', method = 'POST') {
  const r = await fetch(url, { method, headers: { 'Content-Type': type }, body: method === 'GET' ? undefined : body });
  return { status: r.status, text: await r.text() };
}

async function receiving() {
  // The running store, for the one test that makes its connection give up sooner on a lock.
  let running!: Store;
  const r = await rehearsal({ profileDialect: { builtin: 'spec' }, follow: 'receipts', testOnlyWrapStore: (opened) => void (running = opened) });
  r.sandbox.setReceiptsUrl(null);
  // What was kept, read through a connection of the test's own.
  const stored = storedIn(r.services.home);
  onTestFinished(closeStored);
  const receipts = () => stored.db.prepare("SELECT count(*) AS n FROM exchanges WHERE operation = 'receipt'").get() as { n: number };
  return { ...r, url: r.profile.receipts.url!, receipts, stored, running };
}

describe('the receipt listener', () => {
  it('listens on 127.0.0.1 by default, at an unguessable path, and keeps that address', async () => {
    const { profile, stored, call } = await receiving();
    const url = new URL(profile.receipts.url!);
    expect(url.hostname).toBe('127.0.0.1');
    expect(profile.receipts).toMatchObject({ host: '127.0.0.1', state: 'listening' });
    const secret = url.pathname.slice(1);
    expect(Buffer.from(secret, 'base64url').length * 8).toBeGreaterThanOrEqual(128);
    // The port chosen at first start is kept: the address given to the provider does not change.
    expect(stored.profiles.get(profile.id)!.receipts.port).toBe(Number(url.port));
    const other = (await call('profiles.list')).find((p) => p.id === profile.id)!;
    expect(other.receipts.url).toBe(profile.receipts.url);
  });

  it('answers anything but a POST to its secret path with a bare 404 (or 405), and keeps nothing', async () => {
    const { url, receipts } = await receiving();
    const base = new URL(url);
    for (const path of ['/', '/x', `${base.pathname}x`, base.pathname.slice(0, -1), `${base.pathname}/`, base.pathname.toUpperCase()]) {
      expect((await post(new URL(path, base).toString(), '{"smsid":"a","state":"answered"}')).status, path).toBe(404);
    }
    expect((await post(url, '', 'text/plain', 'GET')).status).toBe(405);
    expect(receipts().n).toBe(0);
  });

  it('refuses a body over 64 KiB (413) and an unreadable one (400, kept); acknowledges an unknown ID (kept)', async () => {
    const { url, receipts, stored } = await receiving();
    expect((await post(url, `{"smsid":"${'x'.repeat(MAX_RECEIPT_BYTES)}"}`)).status).toBe(413);
    expect(receipts().n).toBe(0);
    expect(await post(url, '<html>oops</html>', 'text/html')).toEqual({ status: 400, text: 'unreadable receipt' });
    expect(await post(url, '{"smsid": "nobody", "state": "answered"}')).toEqual({ status: 200, text: '{"code":2,"msg":"ok"}' });
    expect(receipts().n).toBe(2);
    const rows = exchangeRows(stored, "operation = 'receipt'") as { message_id: number | null; url: string; status: number }[];
    expect(rows.map((r) => [r.message_id, r.status])).toEqual([
      [null, 400],
      [null, 200],
    ]);
    // The path secret is never stored (the placeholder is percent-encoded: the URL stays one).
    const secret = new URL(url).pathname.slice(1);
    for (const r of rows) expect(r.url).toMatch(/\/%5BREDACTED%5D$/);
    const dump = JSON.stringify(exchangeRows(stored));
    expect(dump).not.toContain(secret);
  });

  it('reads JSON lists, XML with many receipts and GBK forms; one profile never receives for another', async () => {
    const { services, call, url, profile } = await receiving();
    // Another profile's message with the same provider ID.
    const other = await call('messages.send', { profileId: 'sandbox', mobile: '13800138008', content: OTP });
    await ended(services, other.message.id);
    const a = await call('messages.send', { profileId: profile.id, mobile: '13800138008', content: OTP });
    const b = await call('messages.send', { profileId: profile.id, mobile: '13800138009', content: OTP });
    const xml = `<?xml version="1.0"?><Receipts xmlns="urn:x"><list><smsid>${a.message.smsid}</smsid><state>calling</state></list><list><smsid>${b.message.smsid}</smsid><state>busy</state></list></Receipts>`;
    expect((await post(url, xml, 'application/xml')).status).toBe(200);
    expect(services.sent.detail(a.message.id).message).toMatchObject({ state: 'calling' });
    expect(services.sent.detail(b.message.id).message).toMatchObject({ state: 'busy', endedAt: expect.any(Number) });
    // A GBK form (percent-escapes of GBK bytes), as a GBK gateway posts it.
    const form = `smsid=${a.message.smsid}&status=${[...iconv.encode('已接听', 'gbk')].map((x) => `%${x.toString(16).toUpperCase()}`).join('')}&duration=11`;
    expect((await post(url, form, 'application/x-www-form-urlencoded; charset=gbk')).status).toBe(200);
    expect(services.sent.detail(a.message.id).message).toMatchObject({ state: 'answered', duration: 11 });
    // The receipt naming the other profile's smsid changed nothing there.
    const before = services.sent.detail(other.message.id).message;
    expect((await post(url, JSON.stringify([{ smsid: other.message.smsid, state: 'busy' }]))).status).toBe(200);
    expect(services.sent.detail(other.message.id).message).toEqual(before);
    // One post naming two messages is kept with each of them.
    const ea = (await call('messages.get', { id: a.message.id })).exchanges.filter((e) => e.operation === 'receipt');
    const eb = (await call('messages.get', { id: b.message.id })).exchanges.filter((e) => e.operation === 'receipt');
    expect(ea).toHaveLength(2);
    expect(eb).toHaveLength(1);
    expect(ea[0]!.requestBody).toBe(eb[0]!.requestBody);
  });

  it('acknowledges only what it stored: with the database locked by another process it answers 503, and the post sent again is applied once', async () => {
    const { services, call, url, profile, receipts, running } = await receiving();
    const sent = await call('messages.send', { profileId: profile.id, mobile: '13800138008', content: OTP });
    const id = sent.message.id;
    const before = services.sent.detail(id).message;
    // Another process (a vacuum, an import) holds the write lock. The app waits 5 s for it before giving up; 100 ms here.
    running.db.pragma('busy_timeout = 100');
    const other = new Database(databasePath(services.home));
    onTestFinished(() => {
      if (other.inTransaction) other.exec('ROLLBACK');
      other.close();
    });
    other.exec('BEGIN IMMEDIATE');
    const body = JSON.stringify([{ smsid: sent.message.smsid, state: 'answered', duration: 11 }]);
    const refused = await fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body });
    expect(refused.status).toBe(503);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    other.exec('ROLLBACK');
    // Nothing of it was kept, nothing changed.
    expect(receipts().n).toBe(0);
    expect(services.sent.detail(id).message).toEqual(before);
    // The provider sends it again, the lock gone: acknowledged, kept with the message, applied.
    expect(await post(url, body)).toEqual({ status: 200, text: '{"code":2,"msg":"ok"}' });
    const after = services.sent.detail(id).message;
    expect(after).toMatchObject({ state: 'answered', duration: 11, endedAt: expect.any(Number) });
    // Delivered once more (a provider that missed the answer): kept, and changes nothing.
    expect((await post(url, body)).status).toBe(200);
    expect(services.sent.detail(id).message).toEqual(after);
    expect(services.sent.detail(id).events.filter((e) => e.kind === 'state' && e.state === 'answered')).toHaveLength(1);
    expect((await call('messages.get', { id })).exchanges.filter((e) => e.operation === 'receipt').map((e) => e.status)).toEqual([200, 200]);
  });

  it('reads every receipt of a post within the size limit: 1,200 receipts in one post are all applied, and the post is stored once', async () => {
    const { url, profile, call, receipts, stored } = await receiving();
    // Seeded through the test's own connection: 1,200 calls already accepted.
    const { messages } = stored;
    const ids = stored.db.transaction(() =>
      Array.from({ length: 1200 }, (_, i) => {
        const m = messages.insertPending({
          profile: profile.id,
          baseUrl: profile.baseUrl,
          apiId: profile.apiId,
          mobile: '13800138008',
          content: OTP,
          units: 1,
        });
        return messages.markAccepted(m.id, { code: 2, msg: 'ok', smsid: `R${i}`, count: 1 }).id;
      }),
    )();
    const body = JSON.stringify(ids.map((_, i) => ({ smsid: `R${i}`, state: 'busy' })));
    expect(Buffer.byteLength(body)).toBeLessThan(MAX_RECEIPT_BYTES);
    const { db } = stored;
    db.pragma('wal_checkpoint(TRUNCATE)');
    const bytes = () => [db.name, `${db.name}-wal`].reduce((n, f) => n + (existsSync(f) ? statSync(f).size : 0), 0);
    const before = bytes();
    expect((await post(url, body)).status).toBe(200);
    const states = ids.map((id) => messages.get(id)!.state);
    expect(states.filter((s) => s === 'busy')).toHaveLength(1200);
    expect(messages.get(ids[1199]!)).toMatchObject({ state: 'busy', endedAt: expect.any(Number) });
    // Stored once (not once per message it names: 1,200 copies of 38 KB were 50 MB), and shown with each message it names.
    expect(receipts().n).toBe(1);
    expect(bytes() - before).toBeLessThan(1024 * 1024);
    for (const id of [ids[0]!, ids[599]!, ids[1199]!]) {
      const shown = (await call('messages.get', { id })).exchanges.filter((e) => e.operation === 'receipt');
      expect(shown.map((e) => e.requestBody)).toEqual([body]);
      expect((await call('exchanges.list', { messageId: id })).rows.map((e) => e.id)).toEqual([shown[0]!.id]);
    }
  });

  it('a new secret retires the old address; polling again stops the listener', async () => {
    const { call, profile, url } = await receiving();
    const renewed = await call('profiles.setFollow', { id: profile.id, follow: 'receipts', newSecret: true });
    expect(renewed.receipts.url).not.toBe(url);
    expect((await post(url, '{}')).status).toBe(404);
    expect((await post(renewed.receipts.url!, '{"smsid":"x"}')).status).toBe(200);
    const polling = await call('profiles.setFollow', { id: profile.id, follow: 'poll' });
    expect(polling.receipts).toMatchObject({ state: 'off', url: null });
    await expect(fetch(renewed.receipts.url!, { method: 'POST', body: '{}' })).rejects.toThrow();
  });

  it('says clearly when it cannot listen: a port in use, an address not of this computer', async () => {
    const { call, profile } = await receiving();
    const busy = http.createServer();
    await new Promise<void>((r) => busy.listen(0, '127.0.0.1', r));
    onTestFinished(() => new Promise<void>((r) => busy.close(() => r())));
    const port = (busy.address() as AddressInfo).port;
    await expect(call('profiles.setFollow', { id: profile.id, follow: 'receipts', port })).rejects.toMatchObject({
      code: 'listen-failed',
      params: { kind: 'in-use', port },
    });
    expect((await call('profiles.list')).find((p) => p.id === profile.id)!.receipts.state).toBe('elsewhere');
    await expect(call('profiles.setFollow', { id: profile.id, follow: 'receipts', port: 0, host: 'example.com' })).rejects.toMatchObject({
      code: 'invalid-input',
      issues: [{ path: 'host', message: 'listen-host' }],
    });
    await expect(call('profiles.setFollow', { id: profile.id, follow: 'receipts', port: 0, host: '203.0.113.7' })).rejects.toMatchObject({
      code: 'listen-failed',
      params: { kind: 'address' },
    });
  });

  it('a dialect with no status query follows by receipts; polling it is refused', async () => {
    const { call, profile } = await receiving();
    await call('profiles.setFollow', { id: profile.id, follow: 'poll' });
    const saved = await call('profiles.setDialect', { id: profile.id, dialect: { builtin: 'voiceid-push' } });
    expect(saved.profile).toMatchObject({ follow: 'receipts', receipts: { state: 'listening' } });
    await expect(call('profiles.setFollow', { id: profile.id, follow: 'poll' })).rejects.toMatchObject({
      issues: [{ path: 'follow', message: 'follow-needs-status' }],
    });
    await expect(call('messages.queryStatus', { profileId: profile.id, smsid: 'x' })).rejects.toMatchObject({
      code: 'no-status-query',
      params: { dialect: builtinDialect('voiceid-push')!.name },
    });
  });
});

describe('a profile’s listener follows its settings', () => {
  it('stops when the profile is removed; a dialect without receipts goes back to polling; one that cannot follow is refused', async () => {
    const { call, profile, url } = await receiving();
    const numeric = builtinDialect('numeric-states')!;
    const noReceipts = { ...numeric, id: undefined, name: 'No receipts', receipt: undefined };
    const polled = await call('profiles.setDialect', { id: profile.id, dialect: { custom: noReceipts } });
    expect(polled.profile).toMatchObject({ follow: 'poll', receipts: { state: 'off' } });
    await expect(fetch(url, { method: 'POST', body: '{}' })).rejects.toThrow();
    await expect(call('profiles.setDialect', { id: profile.id, dialect: { custom: { ...noReceipts, status: null } } })).rejects.toMatchObject({
      issues: [{ path: 'dialect', message: 'dialect-cannot-follow' }],
    });
    const back = await call('profiles.setFollow', { id: profile.id, follow: 'poll' }).then(() =>
      call('profiles.setDialect', { id: profile.id, dialect: { builtin: 'spec' } }),
    );
    const listening = await call('profiles.setFollow', { id: back.profile.id, follow: 'receipts' });
    expect(listening.receipts.state).toBe('listening');
    await call('profiles.remove', { id: profile.id });
    await expect(fetch(listening.receipts.url!, { method: 'POST', body: '{}' })).rejects.toThrow();
  });
});
