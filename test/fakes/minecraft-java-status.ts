// What the minecraft-java tests serve and how they call the probe: a status with every part a client reads (sample,
// formatted MOTD, favicon), and the probe called directly, as the runner would.
import { ANY_TARGET } from '../../src/net/target-guard.js';
import { minecraftJavaConfig, probeMinecraftJava, type SrvLookup } from '../../src/probes/minecraft-java.js';
import type { ProbeResult } from '../../src/probes/probe.js';
import { timedLeavingNothingOpen } from './probe-runs.js';

export const STATUS = {
  version: { name: '1.21.4', protocol: 769 },
  players: {
    online: 3,
    max: 20,
    sample: Array.from({ length: 15 }, (_, i) => ({
      name: `§bplayer${i}`,
      id: `00000000-0000-0000-0000-${String(i).padStart(12, '0')}`,
    })),
  },
  description: {
    text: '',
    extra: [
      { text: '§aWelcome ', bold: true },
      {
        text: 'to ',
        extra: [{ translate: 'warden.motd', fallback: '%s!', with: [{ text: 'Warden', color: 'gold' }] }],
      },
      '\n  §7second   line  ',
    ],
  },
  favicon: `data:image/png;base64,${'A'.repeat(2000)}`,
};

/** Calls the probe directly, as the runner would, and checks it left no socket or timer behind. */
export async function probe(
  config: Record<string, unknown>,
  timeoutMs = 1000,
  lookupSrv?: SrvLookup,
): Promise<ProbeResult> {
  return (await timedProbe(config, timeoutMs, lookupSrv)).value;
}

/** probe, also saying how long the probe itself took (not the leak checks around it). */
export function timedProbe(
  config: Record<string, unknown>,
  timeoutMs = 1000,
  lookupSrv?: SrvLookup,
): Promise<{ value: ProbeResult; elapsedMs: number }> {
  return timedLeavingNothingOpen(() => {
    // The signal starts with the probe, not before the leak check's wait for a quiet snapshot.
    const ctx = { signal: AbortSignal.timeout(timeoutMs), timeoutMs, guard: ANY_TARGET };
    return probeMinecraftJava(minecraftJavaConfig.parse(config), ctx, lookupSrv);
  });
}
