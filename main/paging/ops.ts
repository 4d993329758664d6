// The paging slice of the handler table (handlers.ts merges it): incidents, routes, policies,
// schedules, maintenance windows and "paste an alert". Each entry only adapts; the work is done by
// the PagingService built in services.ts.
import type { OutputOf, ParsedInputOf } from '../../common/contract';
import type { pagingOps } from '../../common/contract/paging';
import { fail } from '../errors';
import type { Services } from '../services';
import { incidentCsv, incidentSummary } from './report';

type PagingChannel = keyof typeof pagingOps;
export type PagingHandlers = { [C in PagingChannel]: (input: ParsedInputOf<C>) => Promise<OutputOf<C>> };

export function pagingHandlers(services: Services): PagingHandlers {
  const { paging, contacts, profiles } = services;
  const { config, engine } = paging;

  const policyExists = (id: number) => {
    if (!config.policy(id)) throw fail('paging', { kind: 'policy-not-found', id });
  };
  // Refused as not found (ContactService.get); any other failure (the store) is said as itself.
  const contactExists = (id: number) => void contacts.get(id);

  return {
    'incidents.list': async (q) => paging.incidents.list(q ?? {}),
    'incidents.show': async ({ id }) => engine.detail(id),
    'incidents.ack': async ({ id, by }) => engine.acknowledge(id, by),
    'incidents.resolve': async ({ id, by }) => engine.resolve(id, by),
    'incidents.export': async ({ id, lang, utcOffsetMinutes, timeZone }) => {
      const detail = engine.detail(id);
      let summary: string;
      try {
        summary = incidentSummary(detail, lang, timeZone);
      } catch {
        throw fail('invalid-input', {}, [{ path: 'timeZone', message: 'time-zone-invalid' }]);
      }
      return { csv: incidentCsv(detail, lang, utcOffsetMinutes), summary };
    },

    'paging.receive': async ({ group }) => engine.receive(group),
    'paging.paste': async ({ text }) => paging.intake.paste(text),
    'paging.preview': async ({ text }) => paging.intake.preview(text),
    'paging.receiverStatus': async () => paging.intake.status(),
    'paging.receiverSave': async (s) => paging.intake.save(s),
    'paging.profile': async (q) => {
      if (q?.profileId !== undefined) {
        if (!profiles.records().some((p) => p.id === q.profileId)) throw fail('not-found', { kind: 'profile', id: q.profileId });
        paging.setProfile(q.profileId);
      }
      return { profileId: paging.profileId() };
    },
    'paging.receiverStart': async () => {
      await paging.intake.start();
      return paging.intake.status();
    },
    'paging.receiverStop': async () => {
      await paging.intake.stop();
      return paging.intake.status();
    },

    'paging.routes': async () => config.routes(),
    'paging.saveRoute': async (r) => {
      policyExists(r.policyId);
      const saved = config.saveRoute(r);
      if (!saved) throw fail('paging', { kind: 'route-not-found', id: r.id });
      return saved;
    },
    'paging.removeRoute': async ({ id }) => ({ removed: config.removeRoute(id) }),

    'paging.policies': async () => config.policies(),
    'paging.savePolicy': async (p) => {
      for (const s of p.steps) {
        if (s.target.kind === 'contact') contactExists(s.target.contactId);
        else if (s.target.kind === 'group') contacts.getGroup(s.target.groupId);
        else if (s.target.kind === 'schedule' && !config.schedule(s.target.scheduleId))
          throw fail('paging', { kind: 'schedule-not-found', id: s.target.scheduleId });
      }
      const saved = config.savePolicy(p);
      if (!saved) throw fail('paging', { kind: 'policy-not-found', id: p.id });
      return saved;
    },
    'paging.removePolicy': async ({ id }) => {
      if (config.policyInUse(id)) throw fail('paging', { kind: 'policy-in-use', id });
      return { removed: config.removePolicy(id) };
    },

    'paging.schedules': async () => config.schedules(),
    'paging.saveSchedule': async (s) => {
      try {
        new Intl.DateTimeFormat('en', { timeZone: s.rotation.timeZone });
      } catch {
        throw fail('invalid-input', {}, [{ path: 'rotation.timeZone', message: 'time-zone-invalid' }]);
      }
      if (s.overrides?.some((o) => o.to <= o.from)) throw fail('invalid-input', {}, [{ path: 'overrides', message: 'range-invalid' }]);
      const saved = config.saveSchedule(s);
      if (!saved) throw fail('paging', { kind: 'schedule-not-found', id: s.id });
      return saved;
    },
    'paging.removeSchedule': async ({ id }) => ({ removed: config.removeSchedule(id) }),

    'paging.maintenance': async () => config.windows(),
    'paging.saveWindow': async (w) => {
      if (w.to <= w.from) throw fail('invalid-input', {}, [{ path: 'to', message: 'range-invalid' }]);
      const saved = config.saveWindow(w);
      if (!saved) throw fail('paging', { kind: 'window-not-found', id: w.id });
      return saved;
    },
    'paging.removeWindow': async ({ id }) => ({ removed: config.removeWindow(id) }),
  };
}
