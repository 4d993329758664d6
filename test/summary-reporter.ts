import type { Reporter, TestModule } from 'vitest/node';

/** Ends the run with one plain line, "N passed, N failed, N skipped", that any CI can read. */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    for (const m of testModules) {
      for (const t of m.children.allTests()) {
        const state = t.result().state;
        if (state === 'passed') passed++;
        else if (state === 'failed') failed++;
        else skipped++;
      }
      if (m.state() === 'failed' && ![...m.children.allTests()].length) failed++;
    }
    // Written at exit so that it is the last line, after vitest's own summary.
    process.once('exit', () => process.stdout.write(`Tests: ${passed} passed, ${failed} failed, ${skipped} skipped\n`));
  }
}
