import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { scaled } from '../../test/time-scale.js';

const HEAP = fileURLToPath(new URL('./heap.ts', import.meta.url));

/**
 * A process that allocates as a busy server does (objects that survive a scavenge or two, in short turns of the event
 * loop), then reports its young generation before and after, in MiB.
 */
function youngGeneration(cap: number | null, started = true): { before: number; after: number } {
  const script = `
    const { limitYoungGeneration, youngGenerationBytes } = await import(${JSON.stringify(HEAP)});
    ${cap === null ? '' : `const limit = limitYoungGeneration(${cap});${started ? ' limit.started();' : ''}`}
    const before = youngGenerationBytes();
    let kept = [];
    for (let i = 0; i < 4_000_000; i++) {
      kept.push({ i, text: 'x' + i });
      if (kept.length > 60000) kept = [];
      if (i % 5000 === 0) await new Promise((resolve) => setImmediate(resolve));
    }
    console.log(JSON.stringify({ before, after: youngGenerationBytes() }));
  `;
  const out = JSON.parse(
    execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { encoding: 'utf8' }),
  ) as { before: number; after: number };
  return { before: out.before / 1024 / 1024, after: out.after / 1024 / 1024 };
}

describe('the young generation cap', () => {
  // Checked after each collection, once the event loop turns: on a busy machine V8 may double once more in between.
  it('keeps both semi-spaces near WARDEN_YOUNG_GENERATION_MB under a load that grows them to V8’s 32 MiB without it', () => {
    expect(youngGeneration(null).after).toBeGreaterThan(16);
    expect(youngGeneration(4).after).toBeLessThanOrEqual(8);
  });

  it('gives back what one long burst grew past the cap once the process is quiet', { timeout: scaled(20_000) }, () => {
    const script = `
      const { limitYoungGeneration, youngGenerationBytes } = await import(${JSON.stringify(HEAP)});
      limitYoungGeneration(8, { tidyMs: 1000 }).started();
      // One synchronous burst: nothing checks the cap until it ends.
      let kept = [];
      for (let i = 0; i < 3_000_000; i++) { kept.push({ i, text: 'x' + i }); if (kept.length > 60000) kept = []; }
      kept = null;
      const burst = youngGenerationBytes();
      // Quiet: V8 judges its allocation rate over the last seconds.
      await new Promise((resolve) => setTimeout(resolve, 7500));
      console.log(JSON.stringify({ burst, quiet: youngGenerationBytes() }));
    `;
    const out = JSON.parse(
      execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { encoding: 'utf8' }),
    ) as { burst: number; quiet: number };
    expect(out.burst / 1024 / 1024).toBeGreaterThan(8);
    expect(out.quiet / 1024 / 1024).toBeLessThanOrEqual(8);
  });

  it('does not let it grow at all until the server has started (a start-up is one long burst)', () => {
    const held = youngGeneration(16, false);
    expect(held.after).toBeLessThanOrEqual(held.before);
  });

  it('never forces a full collection, a pause the load did not ask for', { timeout: scaled(20_000) }, () => {
    const script = `
      const { limitYoungGeneration } = await import(${JSON.stringify(HEAP)});
      limitYoungGeneration(8, { tidyMs: 100 }).started();
      // One synchronous burst grows the young generation past the cap, and the tidy collects it, more than once.
      let kept = [];
      for (let i = 0; i < 3_000_000; i++) { kept.push({ i, text: 'x' + i }); if (kept.length > 60000) kept = []; }
      kept = null;
      await new Promise((resolve) => setTimeout(resolve, 1000));
    `;
    const trace = execFileSync(
      process.execPath,
      ['--trace-gc', '--no-memory-reducer', '--import', 'tsx', '--input-type=module', '-e', script],
      { encoding: 'utf8' },
    );
    // The tidy's scavenges show as "testing"; a forced full collection would be a "Mark-Compact … testing".
    expect(trace).toMatch(/Scavenge[^\n]*testing/);
    expect(trace).not.toMatch(/Mark-Compact[^\n]*testing/);
  });
});
