// `npm run fuzz`: the fuzz suite's generators against a real server for WARDEN_FUZZ_RUNS requests (100,000), with counts per status.
// WARDEN_FUZZ_SEED replays a run, WARDEN_FUZZ_CONCURRENCY sets the requests in flight, WARDEN_FUZZ_DIALECT=postgres uses PostgreSQL.
import { dialects } from '../store-dialects.js';
import { formatCounts, groupViolations, runCampaign } from './campaign.js';
import { startFuzzServer } from './server.js';

const runs = Number(process.env.WARDEN_FUZZ_RUNS ?? 100_000);
const seed = Number(process.env.WARDEN_FUZZ_SEED ?? Math.floor(Math.random() * 2 ** 31));
const concurrency = Number(process.env.WARDEN_FUZZ_CONCURRENCY ?? 32);
const dialect = dialects.find((d) => d.name === (process.env.WARDEN_FUZZ_DIALECT ?? 'sqlite'));
if (!dialect?.available) throw new Error(`the dialect ${process.env.WARDEN_FUZZ_DIALECT} is not available`);

const server = await startFuzzServer(dialect);
console.log(`fuzzing ${server.url} (${dialect.name}) with ${runs} requests, seed ${seed}, ${concurrency} at a time`);
let lastReport = performance.now();
try {
  const result = await runCampaign(server, {
    runs,
    seed,
    concurrency,
    onBatch(sent, partial) {
      if (performance.now() - lastReport < 10_000) return;
      lastReport = performance.now();
      console.log(`  ${sent} sent, ${partial.violations.length} violations`);
    },
  });
  const health = await fetch(`${server.url}/healthz`);
  console.log(
    `\n${result.sent} requests in ${(result.ms / 1000).toFixed(1)} s (${Math.round(result.sent / (result.ms / 1000))}/s), seed ${seed}`,
  );
  console.log(`answers:\n${formatCounts(result.counts)}`);
  for (const [outcome, request] of Object.entries(result.examples))
    console.log(`${outcome}, e.g. ${request.slice(0, 400)}`);
  console.log(`/healthz afterwards: ${health.status}`);
  const logged = new Map<string, number>();
  for (const error of server.loggedErrors)
    logged.set(error.split('\n')[0] as string, (logged.get(error.split('\n')[0] as string) ?? 0) + 1);
  console.log(`errors the server logged: ${server.loggedErrors.length}`);
  for (const [error, n] of logged) console.log(`  ${String(n).padStart(7)}  ${error.slice(0, 300)}`);
  console.log(`violations: ${result.violations.length}`);
  if (result.violations.length > 0) console.log(groupViolations(result.violations));
  process.exitCode = result.violations.length > 0 || server.loggedErrors.length > 0 || health.status !== 200 ? 1 : 0;
} finally {
  await server.close();
}
