import type { Database } from 'better-sqlite3';
import {
  assertion,
  capture,
  rawRequest,
  variable,
  type Assertion,
  type AssertionResult,
  type Capture,
  type CollectionSummary,
  type CollectionView,
  type EnvironmentView,
  type RawRequest,
  type RunResultView,
  type RunSummary,
  type RunView,
  type SavedRequestView,
  type Variable,
} from '../../common/contract/workbench';
import { fail } from '../errors';
import { systemClock } from '../clock';

// Rows hold JSON written from the contract's shapes; read back through the same schemas (their
// defaults fill fields added later), a damaged value becoming an empty one rather than a crash.
function readJson<T>(text: string | null, parse: (v: unknown) => T, fallback: T): T {
  if (text === null) return fallback;
  try {
    return parse(JSON.parse(text));
  } catch {
    return fallback;
  }
}
const readVariables = (text: string) => readJson(text, (v) => variable.array().parse(v), [] as Variable[]);

interface CollectionRow {
  id: number;
  name: string;
  description: string;
  variables: string;
  created_at: number;
  updated_at: number;
}

interface RequestRow {
  id: number;
  collection_id: number;
  position: number;
  name: string;
  request: string;
  assertions: string;
  captures: string;
  updated_at: number;
}

interface EnvironmentRow {
  id: number;
  name: string;
  profile: string;
  variables: string;
  updated_at: number;
}

interface RunRow {
  id: number;
  collection_id: number | null;
  collection_name: string;
  environment_name: string | null;
  profile: string;
  status: RunSummary['status'];
  total: number;
  passed: number;
  failed: number;
  errored: number;
  started_at: number;
  ended_at: number | null;
}

interface ResultRow {
  position: number;
  request_id: number | null;
  name: string;
  exchange_id: number | null;
  outcome: RunResultView['outcome'];
  status: number | null;
  provider_code: number | null;
  assertions: string;
  problem: string | null;
  failure: string | null;
  ms: number | null;
}

const EMPTY_REQUEST: RawRequest = rawRequest.parse({ path: '/' });

function requestView(r: RequestRow): SavedRequestView {
  return {
    id: r.id,
    collectionId: r.collection_id,
    position: r.position,
    name: r.name,
    request: readJson(r.request, (v) => rawRequest.parse(v), EMPTY_REQUEST),
    assertions: readJson(r.assertions, (v) => assertion.array().parse(v), [] as Assertion[]),
    captures: readJson(r.captures, (v) => capture.array().parse(v), [] as Capture[]),
    updatedAt: r.updated_at,
  };
}

function summary(r: RunRow): RunSummary {
  return {
    id: r.id,
    collectionId: r.collection_id,
    collectionName: r.collection_name,
    environmentName: r.environment_name,
    profile: r.profile,
    status: r.status,
    total: r.total,
    passed: r.passed,
    failed: r.failed,
    errored: r.errored,
    startedAt: r.started_at,
    endedAt: r.ended_at,
  };
}

function isUniqueViolation(error: unknown): boolean {
  return (error as { code?: string }).code === 'SQLITE_CONSTRAINT_UNIQUE';
}

/** Collections, their requests, environments and runs (migration 0009). */
export class WorkbenchRepository {
  constructor(
    private readonly db: Database,
    private readonly now: () => number = () => systemClock.now(),
  ) {}

  // ——— collections ———

  listCollections(): CollectionSummary[] {
    const rows = this.db
      .prepare(
        `SELECT c.id, c.name, c.description, c.updated_at, (SELECT count(*) FROM collection_requests r WHERE r.collection_id = c.id) AS requests
         FROM collections c ORDER BY c.name COLLATE NOCASE`,
      )
      .all() as Array<{ id: number; name: string; description: string; updated_at: number; requests: number }>;
    return rows.map((r) => ({ id: r.id, name: r.name, description: r.description, requests: r.requests, updatedAt: r.updated_at }));
  }

  collection(id: number): CollectionView {
    const c = this.db.prepare('SELECT * FROM collections WHERE id = ?').get(id) as CollectionRow | undefined;
    if (!c) throw fail('not-found', { kind: 'collection', id });
    const requests = (this.db.prepare('SELECT * FROM collection_requests WHERE collection_id = ? ORDER BY position, id').all(id) as RequestRow[]).map(
      requestView,
    );
    return {
      id: c.id,
      name: c.name,
      description: c.description,
      variables: readVariables(c.variables),
      requests,
      createdAt: c.created_at,
      updatedAt: c.updated_at,
    };
  }

  findCollection(name: string): CollectionView | null {
    const row = this.db.prepare('SELECT id FROM collections WHERE name = ? COLLATE NOCASE').get(name.trim()) as { id: number } | undefined;
    return row ? this.collection(row.id) : null;
  }

  saveCollection(input: { id?: number; name: string; description: string; variables: Variable[] }, now = this.now()): CollectionView {
    try {
      if (input.id !== undefined) {
        const r = this.db
          .prepare('UPDATE collections SET name = ?, description = ?, variables = ?, updated_at = ? WHERE id = ?')
          .run(input.name, input.description, JSON.stringify(input.variables), now, input.id);
        if (r.changes === 0) throw fail('not-found', { kind: 'collection', id: input.id });
        return this.collection(input.id);
      }
      const r = this.db
        .prepare('INSERT INTO collections (name, description, variables, created_at, updated_at) VALUES (?, ?, ?, ?, ?)')
        .run(input.name, input.description, JSON.stringify(input.variables), now, now);
      return this.collection(Number(r.lastInsertRowid));
    } catch (error) {
      if (isUniqueViolation(error)) throw fail('name-taken', { kind: 'collection', name: input.name });
      throw error;
    }
  }

  /**
   * A new collection with its requests, in one transaction (an import: all of it or nothing).
   * `renameIfTaken`: a name already used becomes "Smoke (2)", "Smoke (3)"... instead of being refused.
   */
  addCollection(
    input: { name: string; description: string; variables: Variable[]; renameIfTaken?: boolean },
    requests: readonly { name: string; request: RawRequest; assertions: Assertion[]; captures: Capture[] }[],
  ): CollectionView {
    return this.db.transaction((): CollectionView => {
      const name = input.renameIfTaken ? this.freeName(input.name) : input.name;
      const saved = this.saveCollection({ name, description: input.description, variables: input.variables });
      for (const r of requests) this.saveRequest({ collectionId: saved.id, ...r });
      return this.collection(saved.id);
    })();
  }

  /** A name not taken yet: "Smoke", then "Smoke (2)"... */
  private freeName(name: string): string {
    if (!this.findCollection(name)) return name;
    for (let n = 2; ; n++) if (!this.findCollection(`${name} (${n})`)) return `${name} (${n})`;
  }

  removeCollection(id: number): boolean {
    return this.db.prepare('DELETE FROM collections WHERE id = ?').run(id).changes > 0;
  }

  request(id: number): SavedRequestView {
    const r = this.db.prepare('SELECT * FROM collection_requests WHERE id = ?').get(id) as RequestRow | undefined;
    if (!r) throw fail('not-found', { kind: 'request', id });
    return requestView(r);
  }

  saveRequest(
    input: { id?: number; collectionId: number; name: string; request: RawRequest; assertions: Assertion[]; captures: Capture[] },
    now = this.now(),
  ): SavedRequestView {
    return this.db.transaction((): SavedRequestView => {
      this.collection(input.collectionId);
      const json = [JSON.stringify(input.request), JSON.stringify(input.assertions), JSON.stringify(input.captures)] as const;
      if (input.id !== undefined) {
        const r = this.db
          .prepare('UPDATE collection_requests SET collection_id = ?, name = ?, request = ?, assertions = ?, captures = ?, updated_at = ? WHERE id = ?')
          .run(input.collectionId, input.name, ...json, now, input.id);
        if (r.changes === 0) throw fail('not-found', { kind: 'request', id: input.id });
        this.touch(input.collectionId, now);
        return this.request(input.id);
      }
      const next = (
        this.db.prepare('SELECT coalesce(max(position), -1) + 1 AS p FROM collection_requests WHERE collection_id = ?').get(input.collectionId) as { p: number }
      ).p;
      const r = this.db
        .prepare(
          'INSERT INTO collection_requests (collection_id, position, name, request, assertions, captures, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
        )
        .run(input.collectionId, next, input.name, ...json, now, now);
      this.touch(input.collectionId, now);
      return this.request(Number(r.lastInsertRowid));
    })();
  }

  removeRequest(id: number): boolean {
    return this.db.prepare('DELETE FROM collection_requests WHERE id = ?').run(id).changes > 0;
  }

  private touch(collectionId: number, now: number): void {
    this.db.prepare('UPDATE collections SET updated_at = ? WHERE id = ?').run(now, collectionId);
  }

  // ——— environments ———

  private environmentView(r: EnvironmentRow): EnvironmentView {
    return { id: r.id, name: r.name, profileId: r.profile, variables: readVariables(r.variables), updatedAt: r.updated_at };
  }

  listEnvironments(): EnvironmentView[] {
    return (this.db.prepare('SELECT * FROM environments ORDER BY name COLLATE NOCASE').all() as EnvironmentRow[]).map((r) => this.environmentView(r));
  }

  environment(id: number): EnvironmentView {
    const r = this.db.prepare('SELECT * FROM environments WHERE id = ?').get(id) as EnvironmentRow | undefined;
    if (!r) throw fail('not-found', { kind: 'environment', id });
    return this.environmentView(r);
  }

  findEnvironment(name: string): EnvironmentView | null {
    const r = this.db.prepare('SELECT * FROM environments WHERE name = ? COLLATE NOCASE').get(name.trim()) as EnvironmentRow | undefined;
    return r ? this.environmentView(r) : null;
  }

  saveEnvironment(input: { id?: number; name: string; profileId: string; variables: Variable[] }, now = this.now()): EnvironmentView {
    try {
      if (input.id !== undefined) {
        const r = this.db
          .prepare('UPDATE environments SET name = ?, profile = ?, variables = ?, updated_at = ? WHERE id = ?')
          .run(input.name, input.profileId, JSON.stringify(input.variables), now, input.id);
        if (r.changes === 0) throw fail('not-found', { kind: 'environment', id: input.id });
        return this.environment(input.id);
      }
      const r = this.db
        .prepare('INSERT INTO environments (name, profile, variables, created_at, updated_at) VALUES (?, ?, ?, ?, ?)')
        .run(input.name, input.profileId, JSON.stringify(input.variables), now, now);
      return this.environment(Number(r.lastInsertRowid));
    } catch (error) {
      if (isUniqueViolation(error)) throw fail('name-taken', { kind: 'environment', name: input.name });
      throw error;
    }
  }

  removeEnvironment(id: number): boolean {
    return this.db.prepare('DELETE FROM environments WHERE id = ?').run(id).changes > 0;
  }

  // ——— runs ———

  startRun(input: { collectionId: number; collectionName: string; environmentName: string | null; profile: string; total: number }, now = this.now()): number {
    const r = this.db
      .prepare('INSERT INTO runs (collection_id, collection_name, environment_name, profile, total, started_at) VALUES (?, ?, ?, ?, ?, ?)')
      .run(input.collectionId, input.collectionName, input.environmentName, input.profile, input.total, now);
    return Number(r.lastInsertRowid);
  }

  addResult(runId: number, r: RunResultView): void {
    this.db
      .prepare(
        `INSERT INTO run_results (run_id, position, request_id, name, exchange_id, outcome, status, provider_code, assertions, problem, failure, ms)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        runId,
        r.position,
        r.requestId,
        r.name,
        r.exchangeId,
        r.outcome,
        r.status,
        r.providerCode,
        JSON.stringify(r.assertions),
        r.problem && JSON.stringify(r.problem),
        r.failure && JSON.stringify(r.failure),
        r.ms,
      );
  }

  finishRun(runId: number, now = this.now()): RunView {
    const counts = this.db
      .prepare(
        `SELECT count(*) AS total, coalesce(sum(outcome = 'passed'), 0) AS passed, coalesce(sum(outcome = 'failed'), 0) AS failed, coalesce(sum(outcome = 'error'), 0) AS errored
         FROM run_results WHERE run_id = ?`,
      )
      .get(runId) as { total: number; passed: number; failed: number; errored: number };
    const status = counts.errored > 0 ? 'error' : counts.failed > 0 ? 'failed' : 'passed';
    this.db
      .prepare('UPDATE runs SET status = ?, passed = ?, failed = ?, errored = ?, ended_at = ? WHERE id = ?')
      .run(status, counts.passed, counts.failed, counts.errored, now, runId);
    return this.run(runId);
  }

  listRuns(q: { collectionId?: number; limit?: number } = {}): RunSummary[] {
    const limit = q.limit ?? 100;
    const rows = (
      q.collectionId !== undefined
        ? this.db.prepare('SELECT * FROM runs WHERE collection_id = ? ORDER BY started_at DESC, id DESC LIMIT ?').all(q.collectionId, limit)
        : this.db.prepare('SELECT * FROM runs ORDER BY started_at DESC, id DESC LIMIT ?').all(limit)
    ) as RunRow[];
    return rows.map(summary);
  }

  run(id: number): RunView {
    const r = this.db.prepare('SELECT * FROM runs WHERE id = ?').get(id) as RunRow | undefined;
    if (!r) throw fail('not-found', { kind: 'run', id });
    const results = (this.db.prepare('SELECT * FROM run_results WHERE run_id = ? ORDER BY position, id').all(id) as ResultRow[]).map((x): RunResultView => ({
      position: x.position,
      requestId: x.request_id,
      name: x.name,
      exchangeId: x.exchange_id,
      outcome: x.outcome,
      status: x.status,
      providerCode: x.provider_code,
      assertions: readJson(x.assertions, (v) => v as AssertionResult[], []),
      problem: readJson(x.problem, (v) => v as RunResultView['problem'], null),
      failure: readJson(x.failure, (v) => v as RunResultView['failure'], null),
      ms: x.ms,
    }));
    return { ...summary(r), results };
  }
}
