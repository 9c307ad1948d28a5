// The fuzz suite: requests generated from the OpenAPI document's schemas, with credentials and mutations, to every route of a real server.
// No answer is a 5xx and every error is application/problem+json (test/fuzz/campaign.ts says exactly what holds); `npm run fuzz` runs longer.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialects } from '../store-dialects.js';
import { scaled } from '../time-scale.js';
import { type CampaignResult, formatCounts, groupViolations, runCampaign } from './campaign.js';
import { routeLabel, routesOf } from './requests.js';
import { type FuzzServer, startFuzzServer } from './server.js';

/** Requests per dialect in `npm test`: a few seconds each; WARDEN_FUZZ_RUNS changes it. */
const RUNS = Number(process.env.WARDEN_FUZZ_RUNS ?? 2000);
const SEED = Number(process.env.WARDEN_FUZZ_SEED ?? Math.floor(Math.random() * 2 ** 31));

for (const dialect of dialects)
  describe.skipIf(!dialect.available)(`fuzzing every route (${dialect.name})`, () => {
    let server: FuzzServer;
    let result: CampaignResult;
    let report: string;

    beforeAll(async () => {
      server = await startFuzzServer(dialect);
      result = await runCampaign(server, { runs: RUNS, seed: SEED });
      report =
        `seed ${SEED}: replay with WARDEN_FUZZ_SEED=${SEED} npx vitest run test/fuzz (or npm run fuzz)\n` +
        `answers:\n${formatCounts(result.counts)}\nviolations:\n${groupViolations(result.violations)}\n` +
        `errors the server logged:\n${server.loggedErrors.slice(0, 5).join('\n')}`;
    }, scaled(180_000));

    afterAll(async () => {
      await server?.close();
    });

    it(`answers ${RUNS} generated requests with no 5xx, every error as application/problem+json`, () => {
      expect(result.sent).toBe(RUNS);
      expect(result.violations.length, report).toBe(0);
    });

    it('logs no unhandled error (a 5xx the client never saw, its connection gone, still counts)', () => {
      expect(server.loggedErrors, report).toEqual([]);
    });

    it('reached every route of the OpenAPI document, and the ones it does not list', () => {
      const missed = routesOf(server.doc)
        .map(routeLabel)
        .filter((route) => !result.routes[route]);
      expect(missed).toEqual([]);
    });

    it('still serves afterwards', async () => {
      const health = await fetch(`${server.url}/healthz`);
      expect(health.status).toBe(200);
    });
  });
