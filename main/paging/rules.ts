// The pure rules of paging (common/paging/*) as the engine takes them (deps.ts): the composition
// root installs these; tests may pass their own.
import { routeFor } from '../../common/paging/matchers';
import { heldBy } from '../../common/paging/maintenance';
import type { CallResult } from '../../common/paging/records';
import { onCallAt } from '../../common/paging/schedule';
import { sayText } from '../../common/paging/say';
import { afterCall, type CallEndState } from '../../common/paging/timeline';
import { fail } from '../errors';
import type { PagingRules } from './deps';

/** The escalation's reading of a call (records.ts) as the rule's call end (timeline.ts); a short answer retries as "no answer" does. */
const END_OF: Record<Exclude<CallResult, 'answered' | 'unknown' | 'failed' | 'refused'>, CallEndState> = {
  'short-answer': 'no_answer',
  'no-answer': 'no_answer',
  busy: 'busy',
  declined: 'rejected',
  'powered-off': 'powered_off',
  unreachable: 'unreachable',
};

/** What a value the alert lacks is said as: a call still goes out (the route's preview warns of it). */
const STAND_IN = { zh: '未知', en: 'unknown' } as const;
const CJK = /[\u3400-\u9fff]/;

/** The stand-in for a template: in its language. */
export function standInFor(content: string): string {
  return CJK.test(content) ? STAND_IN.zh : STAND_IN.en;
}

export function pagingRules(templates: { get(id: string): { content: string; markerNames: string[] } | undefined }): PagingRules {
  return {
    routeFor: (group, routes) => routeFor(group, routes).route,
    say: (route, group) => {
      const template = templates.get(route.templateId);
      if (!template) throw fail('not-found', { kind: 'template', id: route.templateId });
      const said = sayText(template, route.variables, group, { missing: standInFor(template.content) });
      if (!said.ok) throw fail('paging', { kind: 'say' });
      return { content: said.text, templateId: route.templateId };
    },
    heldBy: (group, windows, at) => heldBy(group, windows, at).windows[0] ?? null,
    afterCall: (step, attempt, result) => (result in END_OF ? afterCall(step, attempt, END_OF[result as keyof typeof END_OF]) : 'next-person'),
    onCallAt: (schedule, t) => onCallAt(schedule, t)?.contactId ?? null,
  };
}
