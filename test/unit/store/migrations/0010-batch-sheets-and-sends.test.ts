import { describe, expect, it } from 'vitest';
import { MIGRATIONS } from '../../../../main/store/migrations';
import { BatchRepository } from '../../../../main/store/batch-repository';
import { MessageRepository } from '../../../../main/store/message-repository';
import { columns, openAt, tempDbFile } from './temp-db';

const index = MIGRATIONS.findIndex((m) => m.version === 10);
/** The migration before this one (its number depends on what was merged before it). */
const previous = MIGRATIONS[index - 1]!.version;

/** A database at the version before, with a batch, one of its rows and the message sent for it. */
function fromPrevious() {
  const file = tempDbFile();
  const before = openAt(file, previous);
  for (const [table, column] of [
    ['batches', 'columns'],
    ['batch_items', 'cells'],
    ['messages', 'batch_item_id'],
  ] as const) {
    expect(columns(before, table)).not.toContain(column);
  }
  before
    .prepare(
      `INSERT INTO messages (id, profile, base_url, api_id, mobile, content, units, outcome, state, created_at, updated_at, ended_at)
       VALUES (7, 'p', 'http://x', 'id', '13800138000', 'hi', 1, 'accepted', 'answered', 1, 2, 2)`,
    )
    .run();
  before.prepare("INSERT INTO batches (id, profile, name, status, total, created_at, updated_at) VALUES (1, 'p', 'list.csv', 'done', 1, 1, 1)").run();
  before
    .prepare(
      "INSERT INTO batch_items (id, batch_id, row_number, mobile, content, units, status, message_id, updated_at) VALUES (1, 1, 2, '13800138000', 'hi', 1, 'accepted', 7, 1)",
    )
    .run();
  before.close();
  return openAt(file, 10);
}

describe('migration 0010: batch sheets and sends', () => {
  it('is the migration numbered 10, after the one before it', () => {
    expect(MIGRATIONS[index]).toMatchObject({ version: 10, name: 'batch-sheets-and-sends' });
    expect(previous).toBeLessThan(10);
  });

  it('keeps rows written before as they were: no sheet, no cells, sends not linked', () => {
    const db = fromPrevious();
    const batches = new BatchRepository(db);
    expect(batches.get(1)).toMatchObject({ id: 1, columns: null });
    expect(batches.items(1)).toEqual([expect.objectContaining({ id: 1, cells: null, refusedSends: 0, state: 'answered' })]);
    expect(new MessageRepository(db).get(7)).toMatchObject({ id: 7, batchItemId: null });
    expect(batches.counts(1)).toMatchObject({ accepted: 1, answered: 1, refusedSends: 0 });
  });

  it("stores a new batch's sheet and its rows' cells, and counts the sends History lists as rejected for it", () => {
    const db = fromPrevious();
    const batches = new BatchRepository(db);
    const messages = new MessageRepository(db);
    const b = batches.create({ profile: 'p', templateId: null, name: '客户.xlsx', columns: ['客户', '订单号'] }, [
      { rowNumber: 2, mobile: '13800138008', content: '您好', units: 1, status: 'queued', cells: ['王工', 'A1001'] },
    ]);
    expect(batches.get(b.id)!.columns).toEqual(['客户', '订单号']);
    const [item] = batches.items(b.id);
    expect(item!.cells).toEqual(['王工', 'A1001']);
    const refused = messages.insertPending({
      profile: 'p',
      baseUrl: 'http://x',
      apiId: 'a',
      mobile: '13800138008',
      content: '您好',
      units: 1,
      batchItemId: item!.id,
    });
    messages.markRejected(refused.id, { code: 402, msg: '余额不足', errorKind: 'provider-code' });
    expect(messages.get(refused.id)!.batchItemId).toBe(item!.id);
    expect(batches.counts(b.id).refusedSends).toBe(1);
    expect(batches.items(b.id)[0]!.refusedSends).toBe(1);
    // Removing the batch keeps the message (History), unlinked.
    db.prepare("UPDATE batches SET status = 'done' WHERE id = ?").run(b.id);
    expect(batches.remove(b.id)).toBe(true);
    expect(messages.get(refused.id)).toMatchObject({ outcome: 'rejected', batchItemId: null });
  });
});
