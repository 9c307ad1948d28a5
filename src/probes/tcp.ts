// TCP ports: the time it takes to open a connection.
import { connect } from 'node:net';
import { z } from 'zod';
import { host, port } from './fields.js';
import { describeNetworkError, formatSeconds } from './network-error.js';
import { defineProbe } from './probe.js';

export const tcpConfig = z.object({ host: host(), port: port() }).strict();

export const tcp = defineProbe({
  id: 'tcp',
  label: 'TCP port',
  runsOn: ['edge', 'relay'],
  config: tcpConfig,
  secrets: [],
  probe: (config, { signal, timeoutMs }) =>
    new Promise((resolve) => {
      const started = performance.now();
      // host() accepts "[::1]"; net.connect wants the address without brackets. The signal is watched here rather than
      // handed to net.connect, whose stream plumbing for it costs more than the connection itself at thousands of checks.
      const socket = connect({ host: config.host.replace(/^\[(.*)\]$/, '$1'), port: config.port });
      socket.setTimeout(timeoutMs);
      const finish = (result: Parameters<typeof resolve>[0]) => {
        signal.removeEventListener('abort', onAbort);
        socket.removeAllListeners();
        socket.on('error', () => {});
        socket.destroy();
        resolve(result);
      };
      const onAbort = () => finish({ ok: false, error: `timed out after ${formatSeconds(timeoutMs)}` });
      if (signal.aborted) return onAbort();
      signal.addEventListener('abort', onAbort, { once: true });
      socket.once('connect', () => {
        const latencyMs = Math.round(performance.now() - started);
        finish({ ok: true, latencyMs, message: `port ${config.port} open in ${latencyMs} ms` });
      });
      socket.once('timeout', () => finish({ ok: false, error: `timed out after ${formatSeconds(timeoutMs)}` }));
      socket.once('error', (error) => finish({ ok: false, error: describeNetworkError(error, timeoutMs) }));
    }),
});
