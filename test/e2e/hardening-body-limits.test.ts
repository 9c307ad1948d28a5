// Every JSON body reader stops at its cap while the body streams in, whatever the framing: a chunked body far over the
// cap (no Content-Length) is answered 413 while the client is still sending, the server's memory does not grow by the
// body's size, and nothing is stored. A real server (startWarden) on each storage dialect.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RELAY_LIMITS } from '../../src/relay/protocol.js';
import { AI_LIMITS } from '../../src/services/ai-limits.js';
import { API_LIMITS } from '../../src/services/api-limits.js';
import { PUSH_LIMITS } from '../../src/services/push/limits.js';
import { uploadChunked } from '../fakes/chunked-upload.js';
import { type SeededWarden, startSeededWarden } from '../seeded-warden.js';
import { dialects } from '../store-dialects.js';
import { countStoredChecks } from '../stored-checks.js';

const PUSH = 'wdp_bodyLimitHeartbeatToken012345';
const RELAY = 'wdr_bodyLimitRelayToken0123456789';
const CONFIG = `
organization: { key: acme, name: Acme }
relays: [{ key: lab, name: Lab, token: ${RELAY} }]
monitors:
  - { key: beat, name: Beat, type: heartbeat, pushToken: ${PUSH} }
  - { key: far, name: Far, type: tcp, runOn: relay, relay: lab, config: { host: 10.0.0.5, port: 1 } }
`;
/** What each client tries to send: far over every cap. */
const TOTAL = 256 * 1024 * 1024;
/** What may be in flight when the answer comes (socket buffers on both sides, a drain of what was already sent). */
const IN_FLIGHT = 32 * 1024 * 1024;

for (const dialect of dialects)
  describe.skipIf(!dialect.available)(`streamed bodies over their cap (${dialect.name})`, () => {
    let s: SeededWarden;
    let rssBefore: number;

    beforeAll(async () => {
      s = await startSeededWarden(dialect, CONFIG);
      rssBefore = process.memoryUsage().rss;
    });
    afterAll(async () => {
      await s?.close();
    });

    const cases = () =>
      [
        ['push POST, answered by the pre-router', `/api/push/${PUSH}`, {}, PUSH_LIMITS.bodyBytes, 'body-too-large'],
        ['push POST, answered by the app', '/api/push/not-a-token', {}, PUSH_LIMITS.bodyBytes, 'body-too-large'],
        [
          'relay results',
          '/api/relay/results',
          { authorization: `Bearer ${RELAY}`, 'content-type': 'application/json' },
          RELAY_LIMITS.batchBytes,
          'too-large',
        ],
        [
          'an organization API POST',
          '/api/v1/monitors',
          { authorization: `Bearer ${s.writeKey}`, 'content-type': 'application/json' },
          API_LIMITS.bodyBytes,
          'body-too-large',
        ],
      ] as const;

    it('answers 413 problem+json while the client is still sending, then closes, for push, relay results and the organization API', async () => {
      for (const [what, path, headers, cap, type] of cases()) {
        const answer = await uploadChunked(`${s.url}${path}`, { headers, totalBytes: TOTAL, prefix: '{"pad":"' });
        expect(answer.status, what).toBe(413);
        expect(answer.headers['content-type'], what).toBe('application/problem+json');
        expect(JSON.parse(answer.body), what).toMatchObject({
          type: `https://warden.dev/problems/${type}`,
          status: 413,
        });
        expect(JSON.parse(answer.body).detail, what).toContain(String(cap));
        expect(answer.sentAtAnswer, what).toBeLessThan(IN_FLIGHT);
        // The rest of the body is still on the connection: it cannot carry another request, and the answer says so.
        expect(answer.headers.connection, what).toBe('close');
        expect(answer.ms, what).toBeLessThan(5_000);
        // What is still sent is discarded for a moment (the client reads its answer), then the connection is closed.
        expect(answer.closedAfterMs, what).toBeLessThan(3_000);
      }
    });

    it('stops the MCP endpoint’s reader at its cap too (its answer is a JSON-RPC error)', async () => {
      const answer = await uploadChunked(`${s.url}/mcp`, {
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        totalBytes: TOTAL,
        prefix: `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{"pad":"`,
      });
      expect(answer.status).toBe(413);
      expect(JSON.parse(answer.body).error.message).toContain(String(AI_LIMITS.mcpBodyBytes));
      expect(answer.sentAtAnswer).toBeLessThan(IN_FLIGHT);
      expect(answer.closedAfterMs).toBeLessThan(3_000);
    });

    it('kept none of it: memory did not grow by the bodies’ size, nothing was stored, and the server still answers', async () => {
      // Five bodies of 256 MiB were offered; a reader that buffered one would have grown the process by as much.
      expect(process.memoryUsage().rss - rssBefore).toBeLessThan(TOTAL / 2);
      expect(await countStoredChecks(s.opened.store)).toBe(0);
      expect((await s.opened.store.monitors.list(s.organizationId)).map((m) => m.key).sort()).toEqual(['beat', 'far']);
      expect((await fetch(`${s.url}/api/push/${PUSH}`)).status).toBe(200);
    });
  });
