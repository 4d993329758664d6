// The import step of a bulk send, for the screens: open a file once, try mappings, read the report,
// then turn it into a draft batch. Parsed files are kept in memory by id until used or discarded.
import { randomUUID } from 'node:crypto';
import { basename } from 'node:path';
import type { BatchRecord, TemplateRecord } from '../store';
import { fail } from '../errors';
import type { BulkQueue } from './queue';
import { readFile } from 'node:fs/promises';
import { readInWorker, type ReadProgress } from './import-runner';
import {
  prepareRowsAsync,
  resolveMapping,
  suggestMapping,
  type DuplicatePolicy,
  type IssueKind,
  type MappingSpec,
  type PreparedImport,
  type RowIssue,
  type Sheet,
} from './import';
import type { ImportView, RecentlyCalledView } from '../../common/bulk-types';
import { RECENT_CALL_WINDOW_MS, recentlyCalled, type RecentCall } from './recent-calls';
import { systemClock, type Clock } from '../clock';
export type { ImportView } from '../../common/bulk-types';

interface Draft {
  id: string;
  fileName: string;
  sheet: Sheet;
  template: TemplateRecord;
  mapping: MappingSpec;
  prepared: PreparedImport;
  at: number;
}

export interface BulkServiceOptions {
  queue: BulkQueue;
  templates: { get(id: string): TemplateRecord | undefined };
  /** Imports kept at once (the oldest is dropped). Default 4. */
  maxDrafts?: number;
  /** Numbers called (not refused) since a time, with each text (History). */
  calledSince?: (since: number) => RecentCall[];
  /** When a draft was made. Default systemClock. */
  clock?: Clock;
}

/** How a file is being read: progress as it goes (at most every 200 ms), and the id a cancel names. */
export interface OpenProgress {
  requestId?: string;
  onProgress?: (p: ReadProgress) => void;
}

export class BulkService {
  private readonly drafts = new Map<string, Draft>();
  /** Files being read now, by the id their caller gave (to cancel them). */
  private readonly reading = new Map<string, AbortController>();

  constructor(private readonly o: BulkServiceOptions) {}

  get queue(): BulkQueue {
    return this.o.queue;
  }

  /**
   * Reads a file (by path, or bytes from a file picker) in a worker thread within the import limits,
   * maps it (given or suggested) and validates it a slice of rows at a time: main's event loop stays
   * free whatever the file. `requestId` lets `cancelOpen` stop it.
   */
  async open(
    source: { path: string } | { name: string; bytes: Uint8Array },
    templateId: string,
    mapping?: MappingSpec,
    options: { previewCount?: number; maxIssues?: number; balance?: number | null } & OpenProgress = {},
  ): Promise<ImportView> {
    const template = this.template(templateId);
    const { requestId, onProgress: report, ...prepare } = options;
    // Progress is passed on at most once every 200 ms: a window redraws it, it need not see every slice.
    let last = 0;
    const onProgress = report
      ? (p: ReadProgress) => {
          const now = (this.o.clock ?? systemClock).now();
          if (now - last < 200) return;
          last = now;
          report(p);
        }
      : undefined;
    const abort = new AbortController();
    if (requestId) {
      this.reading.get(requestId)?.abort();
      this.reading.set(requestId, abort);
    }
    let sheet: Sheet;
    try {
      const name = 'path' in source ? source.path : source.name;
      const bytes = 'path' in source ? await readPath(source.path) : source.bytes;
      sheet = await readInWorker(name, bytes, { onProgress, signal: abort.signal });
    } finally {
      if (requestId && this.reading.get(requestId) === abort) this.reading.delete(requestId);
    }
    const fileName = basename('path' in source ? source.path : source.name);
    const spec = mapping && Object.keys(mapping).length ? mapping : suggestMapping(sheet, template);
    const prepared = await prepareRowsAsync(sheet, template, resolveMapping(sheet.columns, template, spec), prepare);
    const draft: Draft = { id: randomUUID(), fileName, sheet, template, mapping: spec, prepared, at: (this.o.clock ?? systemClock).now() };
    this.keep(draft);
    return this.view(draft, suggestMapping(sheet, template));
  }

  /** Stops reading the file opened with this id; true when one was being read. */
  cancelOpen(requestId: string): boolean {
    const abort = this.reading.get(requestId);
    abort?.abort();
    return abort !== undefined;
  }

  /** Another mapping (or template) for a file already read. */
  async remap(
    importId: string,
    mapping: MappingSpec,
    templateId?: string,
    options: { previewCount?: number; maxIssues?: number; balance?: number | null } = {},
  ): Promise<ImportView> {
    const d = this.draft(importId);
    const template = templateId ? this.template(templateId) : d.template;
    d.prepared = await prepareRowsAsync(d.sheet, template, resolveMapping(d.sheet.columns, template, mapping), options);
    d.template = template;
    d.mapping = mapping;
    return this.view(d, suggestMapping(d.sheet, template));
  }

  /** Every issue of one kind (or all), paged: the report carries only the first ones. */
  async issues(importId: string, q: { kind?: IssueKind; offset?: number; limit?: number } = {}): Promise<RowIssue[]> {
    const d = this.draft(importId);
    const all = (
      await prepareRowsAsync(d.sheet, d.template, resolveMapping(d.sheet.columns, d.template, d.mapping), {
        maxIssues: Number.MAX_SAFE_INTEGER,
        previewCount: 0,
      })
    ).report.issues;
    const filtered = q.kind ? all.filter((i) => i.kind === q.kind) : all;
    const offset = Math.max(0, q.offset ?? 0);
    return filtered.slice(offset, offset + Math.max(1, Math.min(q.limit ?? 500, 10_000)));
  }

  /** Rows of an import whose number was called with the same text in the last 30 minutes: said before it is started. */
  recentlyCalled(importId: string): RecentlyCalledView {
    const d = this.draft(importId);
    const since = (this.o.clock ?? systemClock).now() - RECENT_CALL_WINDOW_MS;
    return { ...recentlyCalled(d.prepared.rows, this.o.calledSince?.(since) ?? []), windowMinutes: RECENT_CALL_WINDOW_MS / 60_000 };
  }

  /** Turns an import into a draft batch (nothing is sent until the batch is started). */
  createBatch(importId: string, input: { profileId: string; duplicates: DuplicatePolicy; name?: string }): BatchRecord {
    const d = this.draft(importId);
    const sendable = d.prepared.rows.filter((r) => r.valid).length;
    if (sendable === 0) throw fail('nothing-to-send');
    const batch = this.o.queue.create({
      profileId: input.profileId,
      templateId: d.template.id,
      name: input.name?.trim() || d.fileName,
      rows: d.prepared.rows,
      duplicates: input.duplicates,
      columns: d.sheet.columns,
    });
    this.drafts.delete(importId);
    return batch;
  }

  discard(importId: string): boolean {
    return this.drafts.delete(importId);
  }

  private template(id: string): TemplateRecord {
    const t = this.o.templates.get(id);
    if (!t) throw fail('not-found', { kind: 'template', id }, [{ path: 'templateId', message: 'not-found' }]);
    return t;
  }

  private draft(id: string): Draft {
    const d = this.drafts.get(id);
    if (!d) throw fail('not-found', { kind: 'import' });
    return d;
  }

  private keep(d: Draft): void {
    this.drafts.set(d.id, d);
    const max = this.o.maxDrafts ?? 4;
    while (this.drafts.size > max) this.drafts.delete(this.drafts.keys().next().value!);
  }

  private view(d: Draft, suggested: MappingSpec): ImportView {
    return {
      importId: d.id,
      fileName: d.fileName,
      format: d.sheet.format,
      encoding: d.sheet.encoding,
      columns: d.sheet.columns,
      sample: d.sheet.rows.slice(0, 5),
      suggested,
      mapping: d.mapping,
      templateId: d.template.id,
      report: d.prepared.report,
    };
  }
}

async function readPath(path: string): Promise<Uint8Array> {
  try {
    return await readFile(path);
  } catch (error) {
    throw fail('import-failed', { kind: 'cannot-read', name: path, detail: (error as NodeJS.ErrnoException).code ?? String(error) });
  }
}
