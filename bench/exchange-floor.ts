// What a check's exchanges cost at the least, whatever the protocol: raw sockets to a local server (a child process,
// as the runner bench's TCP target is), each check a connect, N request/answer exchanges of about forty bytes and a
// close, with no protocol code at all. Run at the runner bench's pace (10,000 monitors every 30 s: a check started
// every 3 ms, each waking an otherwise idle event loop) and back to back (ten at a time), against N = 0 (a TCP
// check). What N exchanges add to a TCP check's CPU is a floor under any monitor type that logs in, asks or
// queries: issue 35's runner target allows the mix 0.2 × the TCP run's CPU per check over it.
//
//   npx tsx bench/exchange-floor.ts [checks per figure (1500)] [rounds (3)]
import { fork } from 'node:child_process';
import { connect, createServer } from 'node:net';

const CHECKS = Number(process.argv[2] ?? 1500);
const ROUNDS = Number(process.argv[3] ?? 3);
/** The runner bench's pace: 10,000 monitors every 30 s. */
const PACE_MS = 3;
const EXCHANGES = [0, 1, 2, 3, 4];
const REQUEST = 'REQUEST a command of about forty bytes\r\n';
const ANSWER = '+OK an answer of about forty bytes here\r\n';

if (process.env.EXCHANGE_FLOOR_CHILD === '1') {
  const server = createServer((socket) => {
    socket.on('error', () => {});
    socket.on('data', () => socket.write(ANSWER));
    socket.on('end', () => socket.end());
  });
  server.listen(0, '127.0.0.1', () => process.send?.((server.address() as { port: number }).port));
} else {
  const child = fork(new URL(import.meta.url).pathname, [], {
    env: { ...process.env, EXCHANGE_FLOOR_CHILD: '1' },
    execArgv: ['--import', 'tsx'],
  });
  const port = await new Promise<number>((resolve) => child.once('message', (m) => resolve(m as number)));

  /** One check: connect, `n` exchanges, close; resolves once the socket is closed. */
  const check = (n: number) =>
    new Promise<void>((resolve, reject) => {
      const socket = connect(port, '127.0.0.1');
      let left = n;
      const next = () => {
        if (left === 0) socket.end();
        else socket.write(REQUEST);
      };
      socket.on('error', reject);
      socket.on('connect', next);
      socket.on('data', () => {
        left -= 1;
        next();
      });
      socket.resume();
      socket.on('close', () => resolve());
    });

  /** CPU (user and system, µs) of `count` checks of `n` exchanges. */
  async function block(n: number, count: number, paced: boolean): Promise<{ user: number; system: number }> {
    const before = process.cpuUsage();
    if (paced) {
      const start = performance.now();
      const running: Promise<void>[] = [];
      for (let i = 0; i < count; i++) {
        const wait = start + i * PACE_MS - performance.now();
        if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
        running.push(check(n));
      }
      await Promise.all(running);
    } else {
      let started = 0;
      await Promise.all(
        Array.from({ length: 10 }, async () => {
          while (started++ < count) await check(n);
        }),
      );
    }
    return process.cpuUsage(before);
  }

  /**
   * CPU per check in ms (user + system, and system alone) for each exchange count: blocks of BLOCK checks taking turns,
   * so that a machine whose speed drifts through a run weighs on every figure alike.
   */
  const BLOCK = 100;
  async function measure(paced: boolean): Promise<{ all: number; system: number }[]> {
    const sums = EXCHANGES.map(() => ({ user: 0, system: 0 }));
    for (let done = 0; done < CHECKS; done += BLOCK)
      for (const [i, n] of EXCHANGES.entries()) {
        const used = await block(n, BLOCK, paced);
        const sum = sums[i] as { user: number; system: number };
        sum.user += used.user;
        sum.system += used.system;
      }
    const checks = Math.ceil(CHECKS / BLOCK) * BLOCK;
    return sums.map((s) => ({ all: (s.user + s.system) / 1000 / checks, system: s.system / 1000 / checks }));
  }

  try {
    for (const n of EXCHANGES) await block(n, BLOCK, false); // warm-up
    for (const paced of [true, false]) {
      console.log(
        `\n${paced ? `paced, a check every ${PACE_MS} ms (the runner bench's pace)` : 'back to back, ten at a time'}: CPU per check in ms (its system share), and what the exchanges add to a TCP check`,
      );
      console.log(`| round | ${EXCHANGES.map((n) => `${n} exchange${n === 1 ? '' : 's'}`).join(' | ')} |`);
      console.log(`|---|${EXCHANGES.map(() => '---').join('|')}|`);
      for (let round = 1; round <= ROUNDS; round++) {
        const figures = await measure(paced);
        const base = figures[0]?.all ?? 0;
        const cells = figures.map(
          (f, i) => `${f.all.toFixed(3)} (${f.system.toFixed(3)})${i === 0 ? '' : `, ${signed(f.all - base)}`}`,
        );
        console.log(`| ${round} | ${cells.join(' | ')} |`);
      }
    }
  } finally {
    child.kill();
  }
}

function signed(ms: number): string {
  return `${ms < 0 ? '−' : '+'}${Math.abs(ms).toFixed(3)}`;
}
