// Lists the tests that passed only on their retry (vitest.config.ts: `retry`), at the end of the run, so a test that
// needed a second try stays visible instead of passing silently.
import { relative } from 'node:path';
import type { Reporter, TestCase } from 'vitest/node';

export default class FlakyReporter implements Reporter {
  private readonly flaky: string[] = [];

  onTestCaseResult(testCase: TestCase): void {
    if (testCase.diagnostic()?.flaky)
      this.flaky.push(`${relative(process.cwd(), testCase.module.moduleId)} > ${testCase.fullName}`);
  }

  onTestRunEnd(): void {
    if (this.flaky.length === 0) return;
    console.log(`\n${this.flaky.length} test(s) failed once and passed on their retry (see vitest.config.ts):`);
    for (const name of this.flaky) console.log(`  ${name}`);
  }
}
