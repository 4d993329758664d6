import { afterEach, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BulkService } from '../../../main/bulk/bulk-service';
import { GovernorRegistry } from '../../../main/lines/governor';
import { BulkQueue } from '../../../main/bulk/queue';
import { openStore } from '../../../main/store';
import { tempHome } from '../../helpers/temp-home';
import { xlsx } from './xlsx-fixture';

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

function setup() {
  const home = tempHome();
  const store = openStore(home.dir);
  store.templates.save({ id: 'ship', content: '您好，【变量】，您的订单【变量】已发货，请注意查收。', approved: true, markerNames: ['姓名', '订单号'] });
  const queue = new BulkQueue({
    batches: store.batches,
    send: () => Promise.reject(new Error('not in this test')),
    awaitEnd: () => Promise.reject(new Error('no')),
    governors: new GovernorRegistry(() => 1),
  });
  const service = new BulkService({ queue, templates: store.templates, maxDrafts: 2 });
  cleanups.push(
    home.cleanup,
    () => store.close(),
    () => queue.close(),
  );
  return { home, store, service };
}

describe("bulk import service (the screens' import step)", () => {
  it('opens a file from disk with a suggested mapping, tries another mapping without reading it again, and makes a draft batch', async () => {
    const { home, service, store } = setup();
    const path = join(home.dir, '客户.csv');
    writeFileSync(path, '\ufeff手机,姓名,单号\r\n13800138000,张三,A1\r\n13800138000,张三,A1\r\nbad,李四,B2\r\n');
    const view = await service.open({ path }, 'ship');
    expect(view).toMatchObject({ fileName: '客户.csv', format: 'csv', encoding: 'utf-8', columns: ['手机', '姓名', '单号'], templateId: 'ship' });
    expect(view.suggested).toEqual({ 手机: 'mobile', 姓名: '姓名', 单号: '订单号' });
    expect(view.sample).toHaveLength(3);
    expect(view.report.totals).toMatchObject({ valid: 2, invalid: 1, duplicates: 1 });
    const swapped = await service.remap(view.importId, { 手机: 'mobile', 单号: '姓名', 姓名: '订单号' });
    expect(swapped.report.preview[0]!.content).toBe('您好，A1，您的订单张三已发货，请注意查收。');
    expect(await service.issues(view.importId, { kind: 'bad-mobile' })).toEqual([expect.objectContaining({ row: 4, kind: 'bad-mobile' })]);
    const batch = service.createBatch(view.importId, { profileId: 'p', duplicates: 'same-text' });
    expect(batch).toMatchObject({ status: 'draft', total: 3, name: '客户.csv', templateId: 'ship' });
    expect(store.batches.counts(batch.id)).toMatchObject({ queued: 1, skipped: 2 });
    expect(() => service.createBatch(view.importId, { profileId: 'p', duplicates: 'none' })).toThrow(/no longer open/);
  });

  it('opens XLSX bytes from a file picker, and refuses a file with nothing to send', async () => {
    const { service } = setup();
    const view = await service.open(
      {
        name: 'list.xlsx',
        bytes: xlsx([
          ['mobile', 'name', 'order'],
          [13800138000, '张三', 'A1'],
        ]),
      },
      'ship',
      { mobile: 'mobile', name: '1', order: '2' },
    );
    expect(view.report.totals.valid).toBe(1);
    const bad = await service.open({ name: 'bad.csv', bytes: new TextEncoder().encode('mobile,name,order\nnope,x,y\n') }, 'ship', {
      mobile: 'mobile',
      name: '1',
      order: '2',
    });
    expect(() => service.createBatch(bad.importId, { profileId: 'p', duplicates: 'none' })).toThrow(expect.objectContaining({ code: 'nothing-to-send' }));
    await expect(service.open({ name: 'x.csv', bytes: new TextEncoder().encode('a\n1\n') }, 'missing')).rejects.toThrow(
      expect.objectContaining({ code: 'not-found', params: { kind: 'template', id: 'missing' } }),
    );
  });

  it('keeps only a few imports open at once', async () => {
    const { service } = setup();
    const bytes = new TextEncoder().encode('手机,姓名,订单号\n13800138000,a,b\n');
    const first = await service.open({ name: 'a.csv', bytes }, 'ship');
    await service.open({ name: 'b.csv', bytes }, 'ship');
    await service.open({ name: 'c.csv', bytes }, 'ship');
    await expect(service.remap(first.importId, { 手机: 'mobile', 姓名: '1', 订单号: '2' })).rejects.toThrow(/no longer open/);
  });
});
