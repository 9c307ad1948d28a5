// What a PostgreSQL group commit of heartbeats costs, by batch size and by how many processes commit at once: one
// schema of 1,000 heartbeat monitors, and one or three Node processes each storing results through ingest (the
// server's own code: the journal, the optimistic state update) in commits of N, one after another, for the same
// number of commits. PostgreSQL's CPU is every `postgres` process's, ended backends included (cpuOfCommand), the committers' their own; both
// per stored result. Each round measures every configuration in turn, so the machine's drift weighs on all alike.
// Behind issue 38's three-process target: it tells what a smaller batch costs from what committing side by side
// costs on this machine's two cores, at the same batch size.
//
//   npx tsx bench/pg-commit-cost.ts [commits per process (1000)] [rounds (3)]   (DATABASE_URL, else the local test database)
import { fork } from 'node:child_process';
import pg from 'pg';
import { applyConfig } from '../src/config/apply.js';
import { validateConfig } from '../src/config/load.js';
import { createIngest, type IngestInput } from '../src/runner/ingest.js';
import { openStore } from '../src/store/open-store.js';
import { testContext } from '../test/seed.js';
import { cpuOfCommand } from './loadgen-probes.js';
import { processUsage } from './processes.js';

const COMMITS = Number(process.argv[2] ?? 1000);
const ROUNDS = Number(process.argv[3] ?? 3);
const URL_ = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const MONITORS = 1000;
const SETUPS = [
  { processes: 1, batch: 25 },
  { processes: 1, batch: 10 },
  { processes: 3, batch: 10 },
];

async function open(schema: string) {
  const store = await openStore({ dataDir: '/tmp', databaseUrl: URL_, databaseSchema: schema });
  return { store, ctx: testContext(store, { now: () => Date.now() }) };
}

if (process.env.PG_COMMIT_CHILD) {
  // A committer: opens the schema, warms up, waits for the word, commits, reports.
  const { schema, batch, offset } = JSON.parse(process.env.PG_COMMIT_CHILD) as {
    schema: string;
    batch: number;
    offset: number;
  };
  const { store, ctx } = await open(schema);
  const ids = await store.monitors.listIds();
  const ingest = createIngest(ctx);
  let k = offset;
  let at = Date.now();
  const input = (): IngestInput => ({
    monitorId: ids[k++ % ids.length] as string,
    ok: true,
    latencyMs: 3,
    source: 'push',
    checkedAt: at++,
  });
  const commit = () => Promise.all(Array.from({ length: batch }, () => ingest.record(input())));
  for (let i = 0; i < 50; i++) await commit();
  process.send?.('ready');
  await new Promise((resolve) => process.once('message', resolve));
  for (let i = 0; i < COMMITS; i++) await commit();
  process.send?.('done');
  await ingest.close();
  await store.close();
  await new Promise((resolve) => process.once('message', resolve));
  process.exit(0);
} else {
  const schema = `bench_commit_${Date.now()}`;
  const { store, ctx } = await open(schema);
  await store.migrate();
  await applyConfig(
    ctx,
    validateConfig(
      {
        organization: { name: 'Bench' },
        monitors: Array.from({ length: MONITORS }, (_, i) => ({
          key: `m${i}`,
          name: `M${i}`,
          type: 'heartbeat',
          intervalSec: 60,
          config: {},
        })),
      },
      'bench',
    ),
  );

  async function measure(processes: number, batch: number) {
    const children = Array.from({ length: processes }, (_, i) =>
      fork(new URL(import.meta.url).pathname, [String(COMMITS)], {
        env: {
          ...process.env,
          PG_COMMIT_CHILD: JSON.stringify({ schema, batch, offset: Math.floor((i * MONITORS) / processes) }),
        },
        execArgv: ['--import', 'tsx'],
      }),
    );
    const said = (word: string) =>
      Promise.all(children.map((c) => new Promise<void>((resolve) => c.on('message', (m) => m === word && resolve()))));
    await said('ready');
    const pids = children.map((c) => c.pid as number);
    const before = { pg: cpuOfCommand('postgres'), node: pids.reduce((s, p) => s + processUsage(p).cpuSeconds, 0) };
    const started = performance.now();
    const done = said('done');
    for (const c of children) c.send('go');
    await done;
    const seconds = (performance.now() - started) / 1000;
    const after = { pg: cpuOfCommand('postgres'), node: pids.reduce((s, p) => s + processUsage(p).cpuSeconds, 0) };
    for (const c of children) c.send('bye');
    await Promise.all(children.map((c) => new Promise((resolve) => c.once('exit', resolve))));
    const results = processes * batch * COMMITS;
    return {
      perSecond: results / seconds,
      postgresMs: ((after.pg - before.pg) * 1000) / results,
      nodeMs: ((after.node - before.node) * 1000) / results,
    };
  }

  try {
    console.log(
      `| round | ${SETUPS.map((s) => `${s.processes} process${s.processes > 1 ? 'es' : ''}, commits of ${s.batch}`).join(' | ')} |`,
    );
    console.log(`|---|${SETUPS.map(() => '---').join('|')}|`);
    for (let round = 1; round <= ROUNDS; round++) {
      const cells: string[] = [];
      for (const { processes, batch } of SETUPS) {
        const f = await measure(processes, batch);
        cells.push(
          `${f.perSecond.toFixed(0)}/s, PostgreSQL ${f.postgresMs.toFixed(3)} ms, Node ${f.nodeMs.toFixed(3)} ms per result`,
        );
      }
      console.log(`| ${round} | ${cells.join(' | ')} |`);
    }
  } finally {
    await store.close();
    const client = new pg.Client({ connectionString: URL_ });
    await client.connect();
    await client.query(`drop schema if exists "${schema}" cascade`);
    await client.end();
  }
  process.exit(0);
}
