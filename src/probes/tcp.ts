// TCP ports: the time it takes to open a connection.
import type { Socket } from 'node:net';
import { z } from 'zod';
import { describeNetworkError, timedOutAfter } from '../net/network-error.js';
import { openTcp, withSocket } from '../net/socket-exchange.js';
import { host, port } from './fields.js';
import { defineProbe, type ProbeResult } from './probe.js';

export const tcpConfig = z.object({ host: host(), port: port() }).strict();

export const tcp = defineProbe({
  id: 'tcp',
  label: 'TCP port',
  config: tcpConfig,
  probe: (config, ctx) => {
    const started = performance.now();
    // The signal is watched by withSocket rather than handed to net.connect, whose stream plumbing for it costs more
    // than the connection itself at thousands of checks.
    const open = () => openTcp(ctx, config.host, config.port);
    return withSocket<Socket, ProbeResult>(
      open,
      ctx,
      { ok: false, error: timedOutAfter(ctx.timeoutMs) },
      (socket, { finish }) => {
        socket.once('connect', () => {
          const latencyMs = Math.round(performance.now() - started);
          finish({ ok: true, latencyMs, message: `port ${config.port} open in ${latencyMs} ms` });
        });
        socket.once('error', (error) => finish({ ok: false, error: describeNetworkError(error, ctx.timeoutMs) }));
      },
    );
  },
});
