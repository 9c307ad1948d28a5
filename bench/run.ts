// `npm run bench [name…]`: runs the benchmarks, each printing its figures as ratios against a baseline from the same run.
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export interface Benchmark {
  name: string;
  description: string;
  /** Prints its report; resolves to false when a target is missed. */
  run(): Promise<boolean>;
}

const dir = fileURLToPath(new URL('.', import.meta.url));
const files = readdirSync(dir)
  .filter((f) => f.endsWith('.bench.ts'))
  .sort();
const wanted = process.argv.slice(2);
let allMet = true;
for (const file of files) {
  const { benchmark } = (await import(new URL(file, import.meta.url).href)) as { benchmark: Benchmark };
  if (wanted.length > 0 && !wanted.includes(benchmark.name)) continue;
  console.log(`\n=== ${benchmark.name}: ${benchmark.description}`);
  const met = await benchmark.run();
  console.log(met ? `--- ${benchmark.name}: targets met` : `--- ${benchmark.name}: TARGET MISSED`);
  allMet &&= met;
}
process.exitCode = allMet ? 0 : 1;
