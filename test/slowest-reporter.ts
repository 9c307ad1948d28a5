// Lists the files that took longest, with their share of the run, at its end: `npm test` has a budget (10 minutes on a
// clean clone), and the files that spend it should be in view when it is exceeded. WARDEN_TEST_SLOWEST sets how many
// (15 by default; 0 lists none).
import { relative } from 'node:path';
import type { Reporter, TestModule } from 'vitest/node';

export default class SlowestReporter implements Reporter {
  private readonly files: { name: string; ms: number }[] = [];

  onTestModuleEnd(module: TestModule): void {
    const d = module.diagnostic();
    this.files.push({
      name: relative(process.cwd(), module.moduleId),
      ms: d.duration + d.collectDuration + d.setupDuration + d.prepareDuration,
    });
  }

  onTestRunEnd(): void {
    const count = Number(process.env.WARDEN_TEST_SLOWEST ?? 15);
    if (!(count > 0) || this.files.length === 0) return;
    const total = this.files.reduce((sum, f) => sum + f.ms, 0);
    const slowest = [...this.files].sort((a, b) => b.ms - a.ms).slice(0, count);
    const share = slowest.reduce((sum, f) => sum + f.ms, 0);
    console.log(
      `\nThe ${slowest.length} slowest of ${this.files.length} files (${(share / 1000).toFixed(0)} s of ${(total / 1000).toFixed(0)} s summed over the workers):`,
    );
    for (const f of slowest) console.log(`  ${(f.ms / 1000).toFixed(1).padStart(6)} s  ${f.name}`);
  }
}
