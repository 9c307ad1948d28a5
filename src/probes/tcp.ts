// TCP ports: the time it takes to open a connection.
import { z } from 'zod';
import { describeNetworkError } from '../net/network-error.js';
import { probeOverTcp } from './exchange.js';
import { host, port } from './fields.js';
import { defineProbe } from './probe.js';

export const tcpConfig = z.object({ host: host(), port: port() }).strict();

export const tcp = defineProbe({
  id: 'tcp',
  label: 'TCP port',
  config: tcpConfig,
  // The signal is watched by withSocket rather than handed to net.connect, whose stream plumbing for it costs more than
  // the connection itself at thousands of checks.
  probe: (config, ctx) =>
    probeOverTcp(config, ctx, (socket, { finish }, elapsed) => {
      socket.once('connect', () => {
        const latencyMs = elapsed();
        finish({ ok: true, latencyMs, message: `port ${config.port} open in ${latencyMs} ms` });
      });
      socket.once('error', (error) => finish({ ok: false, error: describeNetworkError(error, ctx.timeoutMs) }));
    }),
});
