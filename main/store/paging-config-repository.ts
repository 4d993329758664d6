// Paging's configuration (issue 25): routes, escalation policies, schedules with their overrides,
// and maintenance windows. Structured parts (matchers, steps, a rotation) are stored as JSON of
// common/paging/types.ts; callers validate them (the contract's schemas).
import type { Database } from 'better-sqlite3';
import type { EscalationPolicy, MaintenanceWindow, Override, Route, Rotation, Schedule } from '../../common/paging/types';
import { systemClock } from '../clock';

interface RouteRow {
  id: number;
  name: string;
  position: number;
  matchers: string;
  severities: string;
  policy_id: number;
  template_id: string;
  variables: string;
  through_quiet_hours: string;
  call_on_resolved: 0 | 1;
  is_default: 0 | 1;
}

const toRoute = (r: RouteRow): Route => ({
  id: r.id,
  name: r.name,
  position: r.position,
  matchers: JSON.parse(r.matchers) as Route['matchers'],
  severities: JSON.parse(r.severities) as string[],
  policyId: r.policy_id,
  templateId: r.template_id,
  variables: JSON.parse(r.variables) as Record<string, string>,
  throughQuietHours: JSON.parse(r.through_quiet_hours) as string[],
  callOnResolved: r.call_on_resolved === 1,
  isDefault: r.is_default === 1,
});

interface PolicyRow {
  id: number;
  name: string;
  steps: string;
  repeat: number;
  min_answered_seconds: number;
}

const toPolicy = (r: PolicyRow): EscalationPolicy => ({
  id: r.id,
  name: r.name,
  steps: JSON.parse(r.steps) as EscalationPolicy['steps'],
  repeat: r.repeat,
  minAnsweredSeconds: r.min_answered_seconds,
});

interface WindowRow {
  id: number;
  name: string;
  matchers: string;
  from_at: number;
  to_at: number;
}

const toWindow = (r: WindowRow): MaintenanceWindow => ({
  id: r.id,
  name: r.name,
  matchers: JSON.parse(r.matchers) as MaintenanceWindow['matchers'],
  from: r.from_at,
  to: r.to_at,
});

export type RouteFields = Omit<Route, 'id'> & { id?: number };
export type PolicyFields = Omit<EscalationPolicy, 'id'> & { id?: number };
export type ScheduleFields = { id?: number; name: string; rotation: Rotation; overrides?: Omit<Override, 'id'>[] };
export type WindowFields = Omit<MaintenanceWindow, 'id'> & { id?: number };

export class PagingConfigRepository {
  constructor(
    private readonly db: Database,
    private readonly now: () => number = () => systemClock.now(),
  ) {}

  // ------------------------------------------------------------ routes

  /** In the order they are tried: by position, the default route last. */
  routes(): Route[] {
    return (this.db.prepare('SELECT * FROM paging_routes ORDER BY is_default, position, id').all() as RouteRow[]).map(toRoute);
  }

  route(id: number): Route | undefined {
    const r = this.db.prepare('SELECT * FROM paging_routes WHERE id = ?').get(id) as RouteRow | undefined;
    return r && toRoute(r);
  }

  saveRoute(f: RouteFields): Route {
    const at = this.now();
    const values = [
      f.name,
      f.position,
      JSON.stringify(f.matchers),
      JSON.stringify(f.severities),
      f.policyId,
      f.templateId,
      JSON.stringify(f.variables),
      JSON.stringify(f.throughQuietHours),
      f.callOnResolved ? 1 : 0,
      f.isDefault ? 1 : 0,
      at,
    ];
    return this.db.transaction(() => {
      // One default route: saving another default makes it the one.
      if (f.isDefault) this.db.prepare('UPDATE paging_routes SET is_default = 0 WHERE is_default = 1 AND id IS NOT ?').run(f.id ?? null);
      if (f.id !== undefined) {
        const changes = this.db
          .prepare(
            'UPDATE paging_routes SET name = ?, position = ?, matchers = ?, severities = ?, policy_id = ?, template_id = ?, variables = ?, through_quiet_hours = ?, call_on_resolved = ?, is_default = ?, updated_at = ? WHERE id = ?',
          )
          .run(...values, f.id).changes;
        return changes ? this.route(f.id) : undefined;
      }
      const info = this.db
        .prepare(
          'INSERT INTO paging_routes (name, position, matchers, severities, policy_id, template_id, variables, through_quiet_hours, call_on_resolved, is_default, updated_at, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
        )
        .run(...values, at);
      return this.route(Number(info.lastInsertRowid));
    })() as Route;
  }

  removeRoute(id: number): boolean {
    return this.db.prepare('DELETE FROM paging_routes WHERE id = ?').run(id).changes > 0;
  }

  // ------------------------------------------------------------ policies

  policies(): EscalationPolicy[] {
    return (this.db.prepare('SELECT * FROM paging_policies ORDER BY name COLLATE NOCASE, id').all() as PolicyRow[]).map(toPolicy);
  }

  policy(id: number): EscalationPolicy | undefined {
    const r = this.db.prepare('SELECT * FROM paging_policies WHERE id = ?').get(id) as PolicyRow | undefined;
    return r && toPolicy(r);
  }

  /** Undefined when `id` names no policy. */
  savePolicy(f: PolicyFields): EscalationPolicy | undefined {
    const at = this.now();
    if (f.id !== undefined) {
      const changes = this.db
        .prepare('UPDATE paging_policies SET name = ?, steps = ?, repeat = ?, min_answered_seconds = ?, updated_at = ? WHERE id = ?')
        .run(f.name, JSON.stringify(f.steps), f.repeat, f.minAnsweredSeconds, at, f.id).changes;
      return changes ? this.policy(f.id) : undefined;
    }
    const info = this.db
      .prepare('INSERT INTO paging_policies (name, steps, repeat, min_answered_seconds, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)')
      .run(f.name, JSON.stringify(f.steps), f.repeat, f.minAnsweredSeconds, at, at);
    return this.policy(Number(info.lastInsertRowid));
  }

  /** A policy a route still uses is kept (false). */
  removePolicy(id: number): boolean {
    if (this.db.prepare('SELECT 1 FROM paging_routes WHERE policy_id = ?').get(id)) return false;
    return this.db.prepare('DELETE FROM paging_policies WHERE id = ?').run(id).changes > 0;
  }

  policyInUse(id: number): boolean {
    return this.db.prepare('SELECT 1 FROM paging_routes WHERE policy_id = ?').get(id) !== undefined;
  }

  // ------------------------------------------------------------ schedules

  schedules(): Schedule[] {
    const rows = this.db.prepare('SELECT id FROM paging_schedules ORDER BY name COLLATE NOCASE, id').all() as { id: number }[];
    return rows.map((r) => this.schedule(r.id)!);
  }

  schedule(id: number): Schedule | undefined {
    const r = this.db.prepare('SELECT * FROM paging_schedules WHERE id = ?').get(id) as { id: number; name: string; rotation: string } | undefined;
    if (!r) return undefined;
    const overrides = (
      this.db.prepare('SELECT * FROM paging_overrides WHERE schedule_id = ? ORDER BY from_at, id').all(id) as {
        id: number;
        contact_id: number;
        from_at: number;
        to_at: number;
      }[]
    ).map((o): Override => ({ id: o.id, contactId: o.contact_id, from: o.from_at, to: o.to_at }));
    return { id: r.id, name: r.name, rotation: JSON.parse(r.rotation) as Rotation, overrides };
  }

  /** Saves a schedule; `overrides`, when given, replace its overrides. Undefined when `id` names no schedule. */
  saveSchedule(f: ScheduleFields): Schedule | undefined {
    const at = this.now();
    const id = this.db.transaction(() => {
      let sid = f.id;
      if (sid === undefined) {
        sid = Number(
          this.db
            .prepare('INSERT INTO paging_schedules (name, rotation, created_at, updated_at) VALUES (?, ?, ?, ?)')
            .run(f.name, JSON.stringify(f.rotation), at, at).lastInsertRowid,
        );
      } else if (
        this.db.prepare('UPDATE paging_schedules SET name = ?, rotation = ?, updated_at = ? WHERE id = ?').run(f.name, JSON.stringify(f.rotation), at, sid)
          .changes === 0
      ) {
        return undefined;
      }
      if (f.overrides) {
        this.db.prepare('DELETE FROM paging_overrides WHERE schedule_id = ?').run(sid);
        const add = this.db.prepare('INSERT INTO paging_overrides (schedule_id, contact_id, from_at, to_at) VALUES (?, ?, ?, ?)');
        for (const o of f.overrides) add.run(sid, o.contactId, o.from, o.to);
      }
      return sid;
    })();
    return id === undefined ? undefined : this.schedule(id);
  }

  removeSchedule(id: number): boolean {
    return this.db.prepare('DELETE FROM paging_schedules WHERE id = ?').run(id).changes > 0;
  }

  // ------------------------------------------------------------ maintenance windows

  windows(): MaintenanceWindow[] {
    return (this.db.prepare('SELECT * FROM paging_maintenance ORDER BY from_at, id').all() as WindowRow[]).map(toWindow);
  }

  /** The windows open at `t`. */
  windowsAt(t: number): MaintenanceWindow[] {
    return (this.db.prepare('SELECT * FROM paging_maintenance WHERE from_at <= ? AND to_at > ? ORDER BY from_at, id').all(t, t) as WindowRow[]).map(toWindow);
  }

  saveWindow(f: WindowFields): MaintenanceWindow | undefined {
    if (f.id !== undefined) {
      const changes = this.db
        .prepare('UPDATE paging_maintenance SET name = ?, matchers = ?, from_at = ?, to_at = ? WHERE id = ?')
        .run(f.name, JSON.stringify(f.matchers), f.from, f.to, f.id).changes;
      if (!changes) return undefined;
      return this.windows().find((w) => w.id === f.id);
    }
    const info = this.db
      .prepare('INSERT INTO paging_maintenance (name, matchers, from_at, to_at, created_at) VALUES (?, ?, ?, ?, ?)')
      .run(f.name, JSON.stringify(f.matchers), f.from, f.to, this.now());
    const id = Number(info.lastInsertRowid);
    return this.windows().find((w) => w.id === id);
  }

  removeWindow(id: number): boolean {
    return this.db.prepare('DELETE FROM paging_maintenance WHERE id = ?').run(id).changes > 0;
  }
}
