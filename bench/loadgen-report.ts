// The figures of `npm run bench loadgen`: what a window cost per second, what the same processes cost idle, and so what
// each stored result costs beyond the idle floor (the figure that extrapolates: docs/scale.md).
import type { Reading } from './loadgen-probes.js';

/** Per second between two readings: CPU seconds, WAL bytes, commits, Redis commands and bytes, rows written and bytes by table. */
export interface Rates {
  sec: number;
  stored: number;
  warden: number;
  postgres: number;
  redis: number;
  players: number;
  other: number;
  wal: number;
  commits: number;
  redisCommands: Record<string, number>;
  redisIn: number;
  redisOut: number;
  writes: Record<string, number>;
  bytes: Record<string, number>;
}

export function rates(b: Reading, a: Reading): Rates {
  const sec = (a.at - b.at) / 1000;
  const s = (n: number) => n / sec;
  const warden = a.warden.reduce((n, w, i) => n + w.cpu - (b.warden[i]?.cpu ?? 0), 0);
  const postgres = a.postgresCpu - b.postgresCpu;
  const redis = a.redisCpu - b.redisCpu;
  const players = a.generatorCpu - b.generatorCpu;
  const byTable = (pick: (t: { bytes: number; writes: number }) => number) =>
    Object.fromEntries(
      Object.keys(a.tables).map((f) => [
        f,
        s(pick(a.tables[f] ?? { bytes: 0, writes: 0 }) - pick(b.tables[f] ?? { bytes: 0, writes: 0 })),
      ]),
    );
  const redisCommands = Object.fromEntries(
    Object.entries(a.redis?.commands ?? {}).map(([cmd, n]) => [cmd, s(n - (b.redis?.commands[cmd] ?? 0))]),
  );
  return {
    sec,
    stored: s(a.stored.relay - b.stored.relay + a.stored.push - b.stored.push),
    warden: s(warden),
    postgres: s(postgres),
    redis: s(redis),
    players: s(players),
    other: s(a.machineBusy - b.machineBusy - warden - postgres - redis - players),
    wal: s(a.walBytes - b.walBytes),
    commits: s(a.commits - b.commits),
    redisCommands,
    redisIn: s((a.redis?.netIn ?? 0) - (b.redis?.netIn ?? 0)),
    redisOut: s((a.redis?.netOut ?? 0) - (b.redis?.netOut ?? 0)),
    writes: byTable((t) => t.writes),
    bytes: byTable((t) => t.bytes),
  };
}

const f = (n: number, digits: number) => (Number.isFinite(n) ? n.toFixed(digits) : 'n/a');
const sum = (o: Record<string, number>) => Object.values(o).reduce((n, v) => n + v, 0);

/** Prints the cost of a stored result, gross (the window's rate over its results) and beyond the idle floor. */
export function reportCosts(load: Rates, idle: Rates, processes: number): void {
  const gross = (pick: (r: Rates) => number) => pick(load) / load.stored;
  const net = (pick: (r: Rates) => number) => (pick(load) - pick(idle)) / load.stored;
  const both = (pick: (r: Rates) => number, scale: number, digits: number, unit: string) =>
    `${f(net(pick) * scale, digits)} ${unit} (gross ${f(gross(pick) * scale, digits)}, idle ${f(pick(idle) * scale, digits)}/s)`;
  const pct = (n: number) => `${(n * 100).toFixed(0)} %`;
  console.log(
    `idle floor (${idle.sec.toFixed(0)} s before the players started): Warden ${pct(idle.warden)} of a core over ${processes} process(es), PostgreSQL ${pct(idle.postgres)}, Redis ${pct(idle.redis)}, anything else on the machine ${pct(idle.other)}`,
  );
  console.log(
    `in the window: Warden ${pct(load.warden)} of a core, PostgreSQL ${pct(load.postgres)}, Redis ${pct(load.redis)}, the players ${pct(load.players)}, anything else on the machine ${pct(load.other)}`,
  );
  console.log('per stored result, beyond the idle floor:');
  console.log(`  Warden CPU ${both((r) => r.warden, 1000, 3, 'ms')}`);
  console.log(`  PostgreSQL server CPU ${both((r) => r.postgres, 1000, 3, 'ms')}`);
  console.log(`  WAL ${both((r) => r.wal, 1, 0, 'bytes')} (server-wide)`);
  console.log(`  commits ${both((r) => r.commits, 1, 3, '')} (the database's)`);
  console.log(
    `  rows written ${both((r) => sum(r.writes), 1, 2, '')}: ${Object.entries(load.writes)
      .map(([t, n]) => `${t} ${f(n / load.stored, 2)}`)
      .join(', ')}`,
  );
  console.log(
    `  table bytes grown (gross): ${Object.entries(load.bytes)
      .map(([t, n]) => `${t} ${f(n / load.stored, 0)}`)
      .join(', ')}`,
  );
  if (processes > 1) {
    const calls = Object.entries(load.redisCommands)
      .filter(([, n]) => n > 0)
      .sort((x, y) => y[1] - x[1]);
    console.log(`  Redis CPU ${both((r) => r.redis, 1000, 4, 'ms')}`);
    console.log(
      `  Redis commands ${both((r) => sum(r.redisCommands), 1, 3, '')}: ${calls
        .slice(0, 7)
        .map(([cmd, n]) => `${cmd} ${f(n / load.stored, 3)}`)
        .join(', ')} (gross)`,
    );
    console.log(`  Redis bytes in ${both((r) => r.redisIn, 1, 0, '')}, out ${both((r) => r.redisOut, 1, 0, '')}`);
  }
}
