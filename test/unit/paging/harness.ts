// Shared by the paging engine tests: a real store (SQLite in a throwaway folder), a send path that
// places no real call (each number's calls end as the test scripts them, after ringing on the manual
// clock), and small in-memory versions of the pure rules the engine is given (routes, text,
// maintenance, the policy's rule after a call, schedules).
import { join } from 'node:path';
import { onTestFinished } from 'vitest';
import type { Database } from 'better-sqlite3';
import type { EscalationPolicy, Route } from '../../../common/paging/types';
import type { MessageRecord } from '../../../common/records';
import { ManualClock } from '../../../main/clock';
import { PagingEngine, type PagingEngineOptions } from '../../../main/paging/engine';
import { openDatabase } from '../../../main/store/database';
import { DialSettingsRepository } from '../../../main/store/dial-settings-repository';
import { IncidentRepository } from '../../../main/store/incident-repository';
import { MessageRepository } from '../../../main/store/message-repository';
import { PagingConfigRepository } from '../../../main/store/paging-config-repository';
import { tempHome } from '../../helpers/temp-home';

import { PEOPLE, RING_MS, afterCall, heldBy, type Script } from './script';

export { PEOPLE, RING_MS, START, afterCall, alertGroup, heldBy, type Script } from './script';

/** One data directory: a database file, opened by as many "processes" (connections) as a test wants. */
export function dataDirectory(): { file: string; open: () => Database } {
  const home = tempHome('callout-paging-');
  const file = join(home.dir, 'callout.db');
  const dbs: Database[] = [];
  onTestFinished(() => {
    for (const db of dbs) if (db.open) db.close();
    home.cleanup();
  });
  return {
    file,
    open: () => {
      const db = openDatabase(file);
      dbs.push(db);
      return db;
    },
  };
}

export interface Rig {
  db: Database;
  engine: PagingEngine;
  incidents: IncidentRepository;
  config: PagingConfigRepository;
  settings: DialSettingsRepository;
  /** Every send, in order: who, and when. */
  sent: { mobile: string; at: number; content: string }[];
  route: Route;
  policy: EscalationPolicy;
}

/**
 * A paging engine on one connection of `dir`. The route and policy are created on the first rig of
 * a data directory (three steps: 王工 with 3 attempts 60 s apart, then 李雷, then 张三; 120 s pauses).
 */
export function rig(
  clock: ManualClock,
  dir: { open: () => Database },
  script: Script,
  over: Partial<PagingEngineOptions> & { policy?: Partial<EscalationPolicy>; route?: Partial<Route> } = {},
): Rig {
  const db = dir.open();
  const now = () => clock.now();
  const incidents = new IncidentRepository(db, now);
  const config = new PagingConfigRepository(db, now);
  const settings = new DialSettingsRepository(db, now);
  const messages = new MessageRepository(db, now);
  // No limits and no quiet hours unless a test sets them (a new data directory has quick dial's defaults).
  if (!config.policies()[0]) settings.save({ scope: '*', perMinute: null, perHour: null, perDay: null, quietStart: null, quietEnd: null });
  let policy = config.policies()[0];
  if (!policy) {
    policy = config.savePolicy({
      name: 'DBA',
      steps: [
        { target: { kind: 'contact', contactId: 1 }, attempts: 3, retrySeconds: 60, pauseSeconds: 120 },
        { target: { kind: 'contact', contactId: 2 }, attempts: 3, retrySeconds: 60, pauseSeconds: 120 },
        { target: { kind: 'contact', contactId: 3 }, attempts: 3, retrySeconds: 60, pauseSeconds: 120 },
      ],
      repeat: 0,
      minAnsweredSeconds: 0,
      ...over.policy,
    })!;
  }
  let route = config.routes()[0];
  if (!route) {
    route = config.saveRoute({
      name: 'default',
      position: 0,
      matchers: [],
      severities: [],
      policyId: policy.id,
      templateId: 'tpl',
      variables: {},
      throughQuietHours: [],
      callOnResolved: false,
      isDefault: true,
      ...over.route,
    });
  }
  const sent: Rig['sent'] = [];
  const calls = new Map<string, number>();
  const engine = new PagingEngine({
    incidents,
    config,
    contacts: { get: (id) => PEOPLE.find((p) => p.id === id), group: () => ({ memberIds: PEOPLE.map((p) => p.id) }) },
    limits: settings,
    profileId: () => 'p',
    send: async (profile, input) => {
      sent.push({ mobile: input.mobile, at: clock.now(), content: input.content });
      const m = messages.insertPending({ profile, baseUrl: 'http://sandbox', apiId: 'id', mobile: input.mobile, content: input.content, units: 1 });
      return { message: messages.markAccepted(m.id, { code: 2, msg: 'ok', smsid: `s${m.id}`, count: 1 }), failure: null };
    },
    awaitEnd: async (id, signal) => {
      const m = messages.get(id)!;
      const n = calls.get(m.mobile) ?? 0;
      calls.set(m.mobile, n + 1);
      const list = script[m.mobile] ?? [{ state: 'no_answer' }];
      const end = list[Math.min(n, list.length - 1)]!;
      await clock.sleep(RING_MS, signal);
      return {
        ...m,
        outcome: 'accepted',
        state: end.state,
        duration: end.duration ?? (end.state === 'answered' ? 40 : null),
        endedAt: clock.now(),
      } satisfies MessageRecord;
    },
    routeFor: (_group, routes) => routes[0] ?? null,
    say: () => ({ content: '数据库磁盘已满', templateId: 'tpl' }),
    heldBy,
    afterCall,
    onCallAt: (schedule) => schedule.rotation.participants[0] ?? null,
    clock,
    pollMs: 0,
    log: (e) => console.error(e),
    ...over,
  });
  onTestFinished(() => engine.close());
  return { db, engine, incidents, config, settings, sent, route, policy };
}
