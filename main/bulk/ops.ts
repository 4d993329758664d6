// The bulk slice of the handler table: opening a file, making a batch of it, running the batch.
import type { PayloadOf } from '../../common/contract';
import type { bulkOps } from '../../common/contract/bulk';
import type { CallService } from '../calls/call-service';
import type { Ops } from '../ops';
import type { BulkService } from './bulk-service';
import type { ReadProgress } from './import-runner';
import type { BulkQueue } from './queue';

export function bulkOpsOf(d: {
  bulk: BulkService;
  queue: BulkQueue;
  calls: Pick<CallService, 'balance'>;
  emit: (event: 'importProgress', payload: PayloadOf<'importProgress'>) => void;
}): Ops<typeof bulkOps> {
  const { bulk, queue } = d;
  return {
    'bulk.open': async ({ templateId, file, mapping, profileId, requestId }) => {
      // The estimate is checked against the balance when a profile is named and its balance can be read.
      let balance: number | null = null;
      if (profileId) {
        const r = await d.calls.balance(profileId).catch(() => null);
        balance = r?.reply?.outcome === 'accepted' ? r.reply.units : null;
      }
      const onProgress = requestId ? (p: ReadProgress) => d.emit('importProgress', { requestId, ...p }) : undefined;
      return bulk.open({ name: file.name, bytes: Buffer.from(file.base64, 'base64') }, templateId, mapping, { balance, requestId, onProgress });
    },
    'bulk.cancelOpen': async ({ requestId }) => ({ cancelled: bulk.cancelOpen(requestId) }),
    'bulk.remap': async ({ importId, mapping, templateId }) => bulk.remap(importId, mapping, templateId),
    'bulk.issues': async ({ importId, ...q }) => bulk.issues(importId, q),
    'bulk.create': async ({ importId, ...input }) => bulk.createBatch(importId, input),
    'bulk.recentlyCalled': async ({ importId }) => bulk.recentlyCalled(importId),
    'bulk.discard': async ({ importId }) => ({ discarded: bulk.discard(importId) }),
    'bulk.list': async (input) => queue.list(input?.limit),
    'bulk.progress': async ({ batchId }) => queue.progress(batchId),
    'bulk.start': async ({ batchId }) => queue.start(batchId),
    'bulk.pause': async ({ batchId }) => queue.pause(batchId),
    'bulk.resume': async ({ batchId }) => queue.resume(batchId),
    'bulk.cancel': async ({ batchId }) => queue.cancel(batchId),
    'bulk.items': async ({ batchId, ...q }) => queue.items(batchId, q),
    'bulk.unknown': async ({ batchId }) => queue.unknownItems(batchId),
    'bulk.requeue': async ({ batchId, itemIds }) => ({ requeued: queue.requeue(batchId, itemIds, { confirm: true }) }),
    'bulk.skip': async ({ batchId, itemIds }) => ({ skipped: queue.skip(batchId, itemIds) }),
    'bulk.export': async ({ batchId, lang, utcOffsetMinutes, format }) => {
      const batch = queue.get(batchId);
      const r = await queue.exportResults(batchId, { lang, utcOffsetMinutes, format });
      const fileName = `callout-batch-${batch.id}.${format}`;
      return r.xlsx ? { fileName, format, rows: r.rows, base64: r.xlsx.toString('base64') } : { fileName, format, rows: r.rows, text: r.csv ?? '' };
    },
    'bulk.remove': async ({ batchId }) => ({ removed: queue.remove(batchId) }),
  };
}
