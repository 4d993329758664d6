import type { Database } from 'better-sqlite3';
import { randomUUID } from 'node:crypto';
import { parseTemplate, validateTemplate } from '../../common/domain/templates';
import type { IpcError } from '../../common/contract/errors';
import { CalloutError, fail, toIpcError } from '../errors';
import { systemClock } from '../clock';

export interface TemplateRecord {
  id: string;
  name: string;
  content: string;
  approved: boolean;
  /** Optional labels for the 【变量】 markers, in order; unnamed markers are referred to by position (1, 2, ...). */
  markerNames: string[];
  createdAt: number;
  updatedAt: number;
}

interface TemplateRow {
  id: string;
  name: string;
  content: string;
  approved: 0 | 1;
  marker_names: string;
  created_at: number;
  updated_at: number;
}

const toRecord = (r: TemplateRow): TemplateRecord => ({
  id: r.id,
  name: r.name,
  content: r.content,
  approved: r.approved === 1,
  markerNames: JSON.parse(r.marker_names) as string[],
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

export interface TemplateInput {
  id?: string;
  name?: string;
  content: string;
  approved?: boolean;
  markerNames?: string[];
}

export class TemplateRepository {
  constructor(
    private readonly db: Database,
    private readonly now: () => number = () => systemClock.now(),
  ) {}

  list(): TemplateRecord[] {
    return (this.db.prepare('SELECT * FROM templates ORDER BY name, id').all() as TemplateRow[]).map(toRecord);
  }

  get(id: string): TemplateRecord | undefined {
    const row = this.db.prepare('SELECT * FROM templates WHERE id = ?').get(id) as TemplateRow | undefined;
    return row && toRecord(row);
  }

  save(input: TemplateInput): TemplateRecord {
    const check = validateTemplate(input.content);
    if (!check.ok) {
      throw fail('invalid-template', { kind: check.error, length: check.length });
    }
    const markers = parseTemplate(input.content).markerCount;
    const markerNames = (input.markerNames ?? []).map((n) => n.trim());
    if (markerNames.length > markers) throw fail('invalid-template', { kind: 'marker-names', markers, names: markerNames.length });
    const at = this.now();
    const id = input.id?.trim() || randomUUID();
    const existing = this.get(id);
    this.db
      .prepare(
        `INSERT INTO templates (id, name, content, approved, marker_names, created_at, updated_at)
         VALUES (@id, @name, @content, @approved, @markerNames, @at, @at)
         ON CONFLICT (id) DO UPDATE SET name = excluded.name, content = excluded.content, approved = excluded.approved,
           marker_names = excluded.marker_names, updated_at = excluded.updated_at`,
      )
      .run({
        id,
        name: input.name?.trim() || existing?.name || input.content.slice(0, 20),
        content: input.content,
        approved: (input.approved ?? existing?.approved ?? false) ? 1 : 0,
        markerNames: JSON.stringify(markerNames),
        at,
      });
    return this.get(id)!;
  }

  /**
   * Saves a list of templates in one transaction: each one that breaks a template rule is told by
   * its index and skipped, the others are kept; any other failure keeps none.
   */
  importAll(templates: readonly TemplateInput[]): { saved: number; errors: { index: number; error: IpcError }[] } {
    const errors: { index: number; error: IpcError }[] = [];
    let saved = 0;
    this.db.transaction(() => {
      templates.forEach((t, index) => {
        try {
          this.save({ ...t, id: t.id || undefined });
          saved++;
        } catch (error) {
          if (!(error instanceof CalloutError)) throw error;
          errors.push({ index, error: toIpcError(error) });
        }
      });
    })();
    return { saved, errors };
  }

  /** Marks templates approved (the provider approved their text), keeping everything else; the ids changed. */
  markApproved(ids: readonly string[]): string[] {
    const stmt = this.db.prepare('UPDATE templates SET approved = 1, updated_at = ? WHERE id = ? AND approved = 0');
    const at = this.now();
    return this.db.transaction(() => ids.filter((id) => stmt.run(at, id).changes > 0))();
  }

  remove(id: string): boolean {
    return this.db.prepare('DELETE FROM templates WHERE id = ?').run(id).changes > 0;
  }
}
