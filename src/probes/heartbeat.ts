// Heartbeat monitors: nothing is probed, results arrive as pushes on the monitor's token.
import { z } from 'zod';
import { defineProbe } from './probe.js';

export const heartbeatConfig = z
  .object({
    graceSec: z
      .number()
      .int({ error: 'expected a whole number of seconds' })
      .min(10, { error: 'expected at least 10 seconds' })
      .max(7 * 24 * 3600, { error: 'expected at most 604800 seconds (7 days)' })
      .default(90)
      .describe('The monitor goes down when no ping arrives within this many seconds of the previous one.'),
  })
  .strict();

export const heartbeat = defineProbe({
  id: 'heartbeat',
  label: 'Heartbeat (push)',
  runsOn: ['push'],
  config: heartbeatConfig,
  targets: [],
  probe: null,
});
