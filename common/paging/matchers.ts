// Label matchers and routes (issue 25, item 2). Pure.
//
// A matcher is Alertmanager's: `label="value"`, `!=`, `=~` and `!~` (a regular expression anchored at
// both ends, as Alertmanager anchors them). A label the alert does not have reads as '' (so
// `env!="prod"` matches an alert without `env`, as in Alertmanager).
//
// routeFor picks the first route, by position, whose severities and matchers all take the group
// (the default route last), and says why as coded explanations the app and the CLI word in either
// language (catalog section `paging.route`).

import type { AlertGroup, LabelMatcher, Route } from './types';

/** Longest pattern (or value) a matcher may have: long patterns are slow to run on every alert. */
export const MATCHER_VALUE_MAX = 1_024;
/** Longest label name in a matcher. */
export const MATCHER_LABEL_MAX = 256;
/** Matchers in one text (a route's, a window's). */
export const MATCHERS_MAX = 50;

export type MatcherProblem = (typeof MATCHER_PROBLEMS)[number];

export interface MatcherIssue {
  code: MatcherProblem;
  params: { label: string; op: LabelMatcher['op']; value: string };
}

export type CompiledMatcher = { ok: true; matcher: LabelMatcher; test: (labels: Record<string, string>) => boolean } | { ok: false; issue: MatcherIssue };

// Constructs RE2 (Go's engine, Alertmanager's) lacks or that make a pattern's run time unbounded:
// backreferences and look-around.
const UNSUPPORTED = /\\[1-9]|\\k<|\(\?<?[=!]/;

// JavaScript's regular expressions backtrack (RE2 does not): a repeated group that itself repeats, such as
// (a+)+ or (.*x){3,}, can take exponential time on a hostile label value. Such patterns are refused; the
// same match is written without nesting (a+, .*x). A heuristic: alternations that overlap, as in (a|a)+,
// are not caught, so label values are bounded too (the intake's 4,096 characters).
const NESTED_REPEAT = /\((?:[^()\\]|\\.)*(?:[+*]|\{\d*,\d*\})(?:[^()\\]|\\.)*\)(?:[+*]|\{\d*,)/;

// Compiled patterns, reused across alerts (bounded: the oldest is dropped first).
const COMPILED = new Map<string, RegExp | null>();
const COMPILED_MAX = 1_000;

function compileRegExp(pattern: string): RegExp | null {
  if (COMPILED.has(pattern)) return COMPILED.get(pattern)!;
  const re = compileFresh(pattern);
  if (COMPILED.size >= COMPILED_MAX) COMPILED.delete(COMPILED.keys().next().value!);
  COMPILED.set(pattern, re);
  return re;
}

function compileFresh(pattern: string): RegExp | null {
  for (const flags of ['u', '']) {
    try {
      return new RegExp(`^(?:${pattern})$`, flags);
    } catch {
      // try without the u flag (it refuses escapes like \- that RE2 takes)
    }
  }
  return null;
}

/** Reads a matcher's label as an alert's labels give it: absent is ''. */
export function labelValue(labels: Record<string, string>, label: string): string {
  return Object.prototype.hasOwnProperty.call(labels, label) ? labels[label]! : '';
}

/** Checks and compiles a matcher once; an invalid one says why (never throws). */
export function compileMatcher(m: LabelMatcher): CompiledMatcher {
  const issue = (code: MatcherProblem): CompiledMatcher => ({
    ok: false,
    issue: { code, params: { label: m.label.slice(0, 60), op: m.op, value: m.value.length > 60 ? `${m.value.slice(0, 57)}...` : m.value } },
  });
  if (m.label.trim() === '') return issue('label-empty');
  if (m.label.length > MATCHER_LABEL_MAX) return issue('label-too-long');
  if (m.value.length > MATCHER_VALUE_MAX) return issue('value-too-long');
  if (m.op === '=' || m.op === '!=') {
    const eq = m.op === '=';
    return { ok: true, matcher: m, test: (labels) => (labelValue(labels, m.label) === m.value) === eq };
  }
  if (UNSUPPORTED.test(m.value)) return issue('pattern-unsupported');
  if (NESTED_REPEAT.test(m.value)) return issue('pattern-slow');
  const re = compileRegExp(m.value);
  if (!re) return issue('pattern-invalid');
  const positive = m.op === '=~';
  return { ok: true, matcher: m, test: (labels) => re.test(labelValue(labels, m.label)) === positive };
}

/** The issues of a list of matchers (empty when all are valid). */
export function matcherIssues(matchers: readonly LabelMatcher[]): MatcherIssue[] {
  return matchers.map(compileMatcher).flatMap((c) => (c.ok ? [] : [c.issue]));
}

/** `label="value"`, quoted and escaped as Alertmanager writes it. */
export function formatMatcher(m: LabelMatcher): string {
  return `${m.label}${m.op}${JSON.stringify(m.value)}`;
}

export interface MatcherSyntaxError {
  code: 'matcher-syntax';
  /** `at`: the character (0-based) where the text stops making sense. */
  params: { at: number; problem: (typeof MATCHER_SYNTAX_PROBLEMS)[number] };
}

export type ParsedMatchers = { ok: true; matchers: LabelMatcher[] } | { ok: false; error: MatcherSyntaxError };

/**
 * Parses Alertmanager's matcher syntax: `{severity=~"critical|page", env!="dev"}`, the braces optional,
 * values double-quoted (with \" \\ \n escapes) or bare (up to the next comma or brace), a comma between
 * matchers (a trailing comma allowed). Label names are letters, digits, `_`, `.`, `-`, or quoted.
 */
export function parseMatchers(text: string): ParsedMatchers {
  const fail = (at: number, problem: MatcherSyntaxError['params']['problem']): ParsedMatchers => ({
    ok: false,
    error: { code: 'matcher-syntax', params: { at, problem } },
  });
  if (text.length > MATCHERS_MAX * (MATCHER_VALUE_MAX + MATCHER_LABEL_MAX)) return fail(0, 'too-long');
  let s = text.trim();
  const offset = text.length - text.trimStart().length;
  let base = offset;
  if (s.startsWith('{')) {
    if (!s.endsWith('}')) return fail(offset + s.length, 'expected-comma');
    s = s.slice(1, -1);
    base += 1;
  }
  const matchers: LabelMatcher[] = [];
  let i = 0;
  const ws = () => {
    while (i < s.length && /\s/.test(s[i]!)) i++;
  };
  const quoted = (): string | null => {
    // s[i] is '"'
    let out = '';
    i++;
    while (i < s.length) {
      const c = s[i]!;
      if (c === '\\' && i + 1 < s.length) {
        const n = s[i + 1]!;
        out += n === 'n' ? '\n' : n === 't' ? '\t' : n;
        i += 2;
      } else if (c === '"') {
        i++;
        return out;
      } else {
        out += c;
        i++;
      }
    }
    return null;
  };
  ws();
  while (i < s.length) {
    if (matchers.length >= MATCHERS_MAX) return fail(base + i, 'too-many');
    let label: string;
    if (s[i] === '"') {
      const q = quoted();
      if (q === null) return fail(base + i, 'unterminated-quote');
      label = q;
    } else {
      const m = /^[\p{L}\p{N}_.:-]+/u.exec(s.slice(i));
      if (!m) return fail(base + i, 'expected-label');
      label = m[0];
      i += m[0].length;
    }
    ws();
    const op = /^(=~|!~|!=|=)/.exec(s.slice(i));
    if (!op) return fail(base + i, 'expected-operator');
    i += op[0].length;
    ws();
    let value: string;
    if (s[i] === '"') {
      const start = i;
      const q = quoted();
      if (q === null) return fail(base + start, 'unterminated-quote');
      value = q;
    } else {
      const m = /^[^,}"]*/.exec(s.slice(i))!;
      value = m[0].trim();
      if (value === '' && op[0] !== '=' && op[0] !== '!=') return fail(base + i, 'expected-value');
      i += m[0].length;
    }
    matchers.push({ label, op: op[0] as LabelMatcher['op'], value });
    ws();
    if (i < s.length) {
      if (s[i] !== ',') return fail(base + i, 'expected-comma');
      i++;
      ws();
    }
  }
  return { ok: true, matchers };
}

/**
 * The labels a group is matched on: its common labels (those every alert carries with one value).
 * The intake fills them (from Alertmanager's `commonLabels`, or computed); with none, the first alert's.
 */
export function labelsOf(group: AlertGroup): Record<string, string> {
  if (Object.keys(group.commonLabels).length > 0 || group.alerts.length === 0) return group.commonLabels;
  return group.alerts.length === 1 ? group.alerts[0]!.labels : group.commonLabels;
}

export const MATCHER_PROBLEMS = ['label-empty', 'label-too-long', 'value-too-long', 'pattern-invalid', 'pattern-unsupported', 'pattern-slow'] as const;
export const MATCHER_SYNTAX_PROBLEMS = [
  'expected-label',
  'expected-operator',
  'expected-value',
  'unterminated-quote',
  'expected-comma',
  'too-many',
  'too-long',
] as const;
export const ROUTE_WHY_CODES = ['matched', 'default', 'skipped-severity', 'skipped-matcher', 'skipped-label-missing', 'skipped-invalid', 'none'] as const;

/** One line of a route's explanation: `paging.route.<code>` in the catalog. */
export type RouteWhy =
  /** This route took the group: every matcher matched (`matchers`: them, formatted; `severity` when filtered). */
  | { code: 'matched'; params: { route: string; matchers: string; severity: string } }
  /** The default route took it: no route before it did. */
  | { code: 'default'; params: { route: string } }
  /** A route was passed: the group's severity is not one of its severities. */
  | { code: 'skipped-severity'; params: { route: string; severity: string; severities: string } }
  /** A route was passed: this matcher (its first that failed) did not match; `actual`: the label's value. */
  | { code: 'skipped-matcher'; params: { route: string; matcher: string; label: string; actual: string } }
  /** A route was passed: this matcher (its first that failed) needs a label the alert does not have. */
  | { code: 'skipped-label-missing'; params: { route: string; matcher: string; label: string } }
  /** A route was passed because one of its matchers is invalid (it can match nothing until fixed). */
  | { code: 'skipped-invalid'; params: { route: string; matcher: string; problem: MatcherProblem } }
  /** No route took the group (and there is no default route). */
  | { code: 'none'; params: Record<string, never> };

export interface RouteChoice {
  route: Route | null;
  /** The routes before the chosen one, each with why it was passed, then why the chosen one took it. */
  why: RouteWhy[];
}

/** The routes in the order they are tried: by position, the default route last. */
export function orderRoutes(routes: readonly Route[]): Route[] {
  return [...routes].sort((a, b) => Number(a.isDefault) - Number(b.isDefault) || a.position - b.position || a.id - b.id);
}

/** Why `route` does not take the group, or null when it does. */
function refusal(route: Route, group: AlertGroup, labels: Record<string, string>): RouteWhy | null {
  if (route.severities.length > 0) {
    const severity = group.severity ?? '';
    if (!route.severities.some((s) => s.toLowerCase() === severity)) {
      return { code: 'skipped-severity', params: { route: route.name, severity, severities: route.severities.join(', ') } };
    }
  }
  for (const m of route.matchers) {
    const c = compileMatcher(m);
    if (!c.ok) return { code: 'skipped-invalid', params: { route: route.name, matcher: formatMatcher(m), problem: c.issue.code } };
    if (!c.test(labels)) {
      if (!Object.prototype.hasOwnProperty.call(labels, m.label))
        return { code: 'skipped-label-missing', params: { route: route.name, matcher: formatMatcher(m), label: m.label } };
      return { code: 'skipped-matcher', params: { route: route.name, matcher: formatMatcher(m), label: m.label, actual: labelValue(labels, m.label) } };
    }
  }
  return null;
}

/**
 * The route a group takes: the first, by position, whose severities include the group's severity
 * (when it lists any) and whose matchers all match the group's labels; the default route takes
 * whatever none before it took. `why` explains each route tried, in order.
 */
export function routeFor(group: AlertGroup, routes: readonly Route[]): RouteChoice {
  const labels = labelsOf(group);
  const why: RouteWhy[] = [];
  for (const route of orderRoutes(routes)) {
    if (route.isDefault) {
      why.push({ code: 'default', params: { route: route.name } });
      return { route, why };
    }
    const no = refusal(route, group, labels);
    if (no) {
      why.push(no);
      continue;
    }
    why.push({
      code: 'matched',
      params: {
        route: route.name,
        matchers: route.matchers.map(formatMatcher).join(', '),
        severity: route.severities.length > 0 ? (group.severity ?? '') : '',
      },
    });
    return { route, why };
  }
  why.push({ code: 'none', params: {} });
  return { route: null, why };
}
