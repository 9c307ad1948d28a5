// A webhook receiver in its own process for the notification benchmarks: records when each delivery arrived (wall
// clock, sub-millisecond), its webhook-id, monitor, kind and event time, and answers 204 (or refuses nothing: a port with
// no receiver is how "down" is played). GET /arrivals lists what came; POST /reset forgets it.
import { spawn } from 'node:child_process';
import type { Child } from './processes.js';

export interface Arrival {
  id: string | null;
  /** Wall-clock ms (performance.timeOrigin + performance.now()) when the body had arrived. */
  at: number;
  monitor: string | null;
  monitorKey: string | null;
  kind: string | null;
  eventAt: number | null;
}

export interface RecordingReceiver extends Child {
  port: number;
  arrivals(): Promise<Arrival[]>;
  reset(): Promise<void>;
}

const SCRIPT = `
  const http = require('node:http');
  let arrivals = [];
  const server = http.createServer((req, res) => {
    if (req.method === 'GET' && req.url === '/arrivals') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(arrivals));
      return;
    }
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const at = performance.timeOrigin + performance.now();
      if (req.url === '/reset') { arrivals = []; res.writeHead(204); res.end(); return; }
      let body = null;
      try { body = JSON.parse(Buffer.concat(chunks).toString('utf8')); } catch {}
      arrivals.push({ id: req.headers['webhook-id'] ?? null, at, monitor: body?.data?.monitor?.id ?? null, monitorKey: body?.data?.monitor?.key ?? null, kind: body?.type ?? null, eventAt: body?.data?.at ?? null });
      res.writeHead(204);
      res.end();
    });
  });
  server.keepAliveTimeout = 5000;
  server.listen(Number(process.argv[1]), '127.0.0.1', () => console.log('listening ' + server.address().port));
  process.on('SIGTERM', () => { server.closeAllConnections(); server.close(() => process.exit(0)); });
`;

/** Starts the receiver on `port` (0: a free one). */
export function startRecordingReceiver(port = 0): Promise<RecordingReceiver> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-e', SCRIPT, String(port)], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    const timer = setTimeout(() => reject(new Error(`the receiver did not start:\n${out}`)), 10_000);
    const onData = (d: Buffer) => {
      out += d;
      const match = /listening (\d+)/.exec(out);
      if (!match) return;
      clearTimeout(timer);
      child.stdout.off('data', onData);
      const url = `http://127.0.0.1:${match[1]}`;
      resolve({
        url,
        port: Number(match[1]),
        process: child,
        arrivals: async () => (await (await fetch(`${url}/arrivals`)).json()) as Arrival[],
        reset: async () => {
          await (await fetch(`${url}/reset`, { method: 'POST' })).arrayBuffer();
        },
        stop: () =>
          new Promise<void>((done) => {
            if (child.exitCode !== null) return done();
            child.once('exit', () => done());
            child.kill('SIGTERM');
          }),
      });
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', (d: Buffer) => (out += d));
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the receiver exited with ${code}:\n${out}`));
    });
  });
}
