// `callout run --reporter junit|json FILE`: the run as a report a CI server reads, besides the
// normal output. JUnit XML (testsuites > testsuite > testcase, a failed assertion as <failure>, a
// request not sent or without a reply as <error>), written by hand with every text escaped; or the
// run's JSON, the value `--json` prints.
import type { AssertionResult, RunResultView, RunView } from '../../common/contract';
import type { CliWords } from './text';

export const REPORT_FORMATS = ['junit', 'json'] as const;
export type ReportFormat = (typeof REPORT_FORMATS)[number];

/** The report of a run in a format: the text of its file. */
export function runReport(format: ReportFormat, run: RunView, words: CliWords): string {
  return format === 'json' ? `${JSON.stringify(run, null, 2)}\n` : junitReport(run, words);
}

// XML 1.0 allows tab, line feed, carriage return and the characters from U+0020 on, except lone
// surrogates and U+FFFE/U+FFFF; anything else (a provider's control characters) is written as a
// visible \uXXXX escape, never as a character that would make the file unreadable.
const NOT_XML = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

function xmlText(value: string): string {
  return value
    .replace(NOT_XML, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;');
}

function xmlAttr(value: string | number): string {
  return xmlText(String(value)).replace(/"/g, '&quot;').replace(/'/g, '&apos;').replace(/\t/g, '&#9;').replace(/\n/g, '&#10;').replace(/\r/g, '&#13;');
}

/** An assertion in words: "status = 200", "code = 2", "$.smsid exists". */
export function assertionText(words: CliWords, a: AssertionResult['assertion'], expected?: string): string {
  const { t } = words;
  switch (a.kind) {
    case 'status':
      return t('workbench.assertion.status', { value: a.equals });
    case 'code':
      return t('workbench.assertion.code', { value: a.equals });
    case 'json-equals':
      return t('workbench.assertion.equals', { path: a.path, value: expected ?? a.equals });
    case 'json-exists':
      return t('workbench.assertion.exists', { path: a.path });
  }
}

/** A failed assertion in words: "expected code = 3, got 2". */
export function failedAssertionText(words: CliWords, a: AssertionResult): string {
  const { t } = words;
  return t('cli:run.failedAssertion', { assertion: assertionText(words, a.assertion, a.expected), actual: a.actual ?? t('workbench.assertion.nothing') });
}

const seconds = (ms: number | null) => ((ms ?? 0) / 1000).toFixed(3);

/** What went wrong with one request, in the user's words: its failed assertions, or why it got no usable reply. */
function problems(words: CliWords, r: RunResultView): { kind: 'failure' | 'error'; type: string; lines: string[] } | null {
  if (r.outcome === 'passed') return null;
  if (r.outcome === 'failed') {
    const lines = r.assertions.filter((a) => !a.passed).map((a) => failedAssertionText(words, a));
    return { kind: 'failure', type: 'assertion', lines };
  }
  const lines = [...(r.problem ? [words.error(r.problem)] : []), ...(r.failure ? [words.reason(r.failure.reason)] : [])];
  return { kind: 'error', type: r.problem ? 'not-sent' : 'no-reply', lines };
}

/** The run as JUnit XML: one testsuite (the collection), one testcase per request run. */
export function junitReport(run: RunView, words: CliWords): string {
  const tests = run.results.length;
  const failures = run.results.filter((r) => r.outcome === 'failed').length;
  const errors = run.results.filter((r) => r.outcome === 'error').length;
  const time = seconds(run.endedAt === null ? run.results.reduce((sum, r) => sum + (r.ms ?? 0), 0) : run.endedAt - run.startedAt);
  const timestamp = new Date(run.startedAt).toISOString();
  const counts = `tests="${tests}" failures="${failures}" errors="${errors}" skipped="0" time="${time}"`;
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="${xmlAttr(`callout run ${run.collectionName}`)}" ${counts} timestamp="${timestamp}">`,
    `  <testsuite name="${xmlAttr(run.collectionName)}" id="${run.id}" ${counts} timestamp="${timestamp}">`,
    '    <properties>',
    `      <property name="runId" value="${run.id}"/>`,
    `      <property name="profile" value="${xmlAttr(run.profile)}"/>`,
    ...(run.environmentName !== null ? [`      <property name="environment" value="${xmlAttr(run.environmentName)}"/>`] : []),
    '    </properties>',
  ];
  for (const r of run.results) {
    const open = `    <testcase name="${xmlAttr(r.name)}" classname="${xmlAttr(run.collectionName)}" time="${seconds(r.ms)}"`;
    const p = problems(words, r);
    const out = r.exchangeId !== null ? `      <system-out>${xmlText(words.t('cli:run.exchangeRef', { id: r.exchangeId }))}</system-out>` : null;
    if (!p && !out) {
      lines.push(`${open}/>`);
      continue;
    }
    lines.push(`${open}>`);
    if (p) {
      const message = p.lines[0] ?? '';
      lines.push(`      <${p.kind} message="${xmlAttr(message)}" type="${p.type}">${xmlText(p.lines.join('\n'))}</${p.kind}>`);
    }
    if (out) lines.push(out);
    lines.push('    </testcase>');
  }
  lines.push('  </testsuite>', '</testsuites>', '');
  return lines.join('\n');
}
