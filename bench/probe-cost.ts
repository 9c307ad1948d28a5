// CPU each monitor type's probe costs the process that runs it, per check: the mix's servers (bench/runner-mix.ts) run
// in a child process, the probes here, N checks of each type a few at a time, and process.cpuUsage() around each type's
// checks. A TCP connect to a local target is the baseline. What `npm run bench runner` sums up per scenario, one type
// at a time and without the server's own work (scheduling, storing), to see where a type's cost goes.
//
//   npx tsx bench/probe-cost.ts [checks per type (300)] [types, comma-separated]
import { fork } from 'node:child_process';
import { createServer } from 'node:net';
import type { MonitorType } from '../src/domain/monitor-type.js';
import { ANY_TARGET } from '../src/net/target-guard.js';
import { probeDefinition } from '../src/probes/registry.js';
import { runProbe } from '../src/probes/run.js';

const CHECKS = Number(process.argv[2] ?? 300);
const ONLY = process.argv[3]?.split(',').filter(Boolean);
const PARALLEL = 10;

interface Kind {
  type: string;
  configs: Record<string, unknown>[];
}

if (process.env.PROBE_COST_CHILD === '1') {
  const { startMix } = await import('./runner-mix.js');
  const mix = await startMix();
  const target = createServer((s) => {
    s.on('error', () => {});
    s.end();
  });
  await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
  const port = (target.address() as { port: number }).port;
  const kinds: Kind[] = [
    { type: 'tcp', configs: [{ host: '127.0.0.1', port }] },
    ...mix.kinds.map((k) => ({ type: k.type, configs: Array.from({ length: 20 }, (_, i) => k.config(i)) })),
  ];
  process.send?.(kinds);
} else {
  const child = fork(new URL(import.meta.url).pathname, [], {
    env: { ...process.env, PROBE_COST_CHILD: '1' },
    execArgv: ['--import', 'tsx'],
  });
  const kinds = await new Promise<Kind[]>((resolve) => child.once('message', (m) => resolve(m as Kind[])));
  try {
    let baseline = 0;
    console.log('| type | CPU per check | × tcp | failed |\n|---|---|---|---|');
    for (const kind of kinds) {
      if (ONLY && kind.type !== 'tcp' && !ONLY.includes(kind.type)) continue;
      const definition = probeDefinition(kind.type as MonitorType);
      // A warm-up round, so module loading and JIT are not counted.
      await Promise.all(kind.configs.map((c) => runProbe(definition, c, { timeoutMs: 5000, guard: ANY_TARGET })));
      let failed = 0;
      let error = '';
      const before = process.cpuUsage();
      let next = 0;
      await Promise.all(
        Array.from({ length: PARALLEL }, async () => {
          while (next < CHECKS) {
            const config = kind.configs[next++ % kind.configs.length];
            const result = await runProbe(definition, config, { timeoutMs: 5000, guard: ANY_TARGET });
            if (!result.ok) {
              failed++;
              error = result.error ?? '';
            }
          }
        }),
      );
      const used = process.cpuUsage(before);
      const perCheck = (used.user + used.system) / 1000 / CHECKS;
      if (kind.type === 'tcp') baseline = perCheck;
      console.log(
        `| ${kind.type} | ${perCheck.toFixed(3)} ms | ${(perCheck / baseline).toFixed(2)} | ${failed}${error ? ` (${error.slice(0, 60)})` : ''} |`,
      );
    }
  } finally {
    child.kill();
  }
}
