// A monitor's locations as the API shows them: named by key ('edge' or the relay's key), with each one's latest result.
import { z } from 'zod';
import { type Monitor, vantageOf } from '../../domain/monitor.js';
import { EDGE_LOCATION, locationVerdict } from '../../domain/vantage.js';

export const locationStateSchema = z.object({
  location: z.string().describe('"edge" or the relay\'s key.'),
  verdict: z
    .enum(['up', 'degraded', 'failing', 'down'])
    .describe("What this location's latest result says (failing: failed, within the monitor's retries)."),
  voting: z
    .boolean()
    .describe("Heard from within two intervals of the monitor's latest check: a silent location does not vote."),
  checkedAt: z.number().int().describe("When this location's latest check ran (epoch ms)."),
  ok: z.boolean(),
  latencyMs: z.number().int().nullable(),
  error: z.string().nullable(),
});

export const monitorLocationFields = {
  locations: z
    .array(z.string())
    .nullable()
    .describe('Other places the monitor also runs, besides its own: "edge" and relay keys (null: its own place only).'),
  quorum: z
    .number()
    .int()
    .nullable()
    .describe('Down when at least this many voting locations see it down (null: a majority of them).'),
  locationStates: z
    .array(locationStateSchema)
    .describe(
      "Each location's latest result, its own place first; [] for a single-location monitor (its `latest` says it all).",
    ),
};

/** How the API names a location: 'edge', or the relay's key (its id when the relay is gone). */
export function locationKey(location: string, relayKeys: ReadonlyMap<string, string>): string {
  return location === EDGE_LOCATION ? EDGE_LOCATION : (relayKeys.get(location) ?? location);
}

export function monitorLocations(monitor: Monitor, relayKeys: ReadonlyMap<string, string>) {
  const vantage = vantageOf(monitor);
  const reference = monitor.lastCheckAt ?? 0;
  const locationStates = (vantage?.locations ?? []).flatMap((location) => {
    const result = monitor.locationResults[location];
    if (!result) return [];
    return [
      {
        location: locationKey(location, relayKeys),
        verdict: locationVerdict(result, monitor.retries),
        voting: vantage !== null && reference - result.at <= vantage.windowMs,
        checkedAt: result.at,
        ok: result.ok,
        latencyMs: result.latencyMs,
        error: result.error,
      },
    ];
  });
  return {
    locations: monitor.locations === null ? null : monitor.locations.map((l) => locationKey(l, relayKeys)),
    quorum: monitor.quorum,
    locationStates,
  };
}
