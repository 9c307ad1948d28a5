// Issue 13: a write key that rotates a relay's token (and so sees it) cannot read the monitors' secrets through the
// relay config: every secret set before that rotation is withheld until it is sent again in full, or warden.yaml is
// applied; the relay agent reports such monitors failed; the operator's `warden relays token` withholds nothing.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Monitor } from '../../src/domain/monitor.js';
import { createLogger } from '../../src/logger.js';
import { startRelayAgent } from '../../src/relay/agent.js';
import { type RelayConfig, SECRETS_WITHHELD_ERROR } from '../../src/relay/protocol.js';
import { runCli } from '../cli-process.js';
import { type SeededWarden, startSeededWarden } from '../seeded-warden.js';
import { dialects } from '../store-dialects.js';

const PASSWORD = 'rcon-password-from-the-file-123';
const HEADER = 'Bearer header-secret-from-the-api-456';
const CONFIG = `
organization: { key: acme, name: Acme }
relays: [{ key: lab, name: Home lab }]
monitors:
  - { key: game, name: Game, type: rcon, runOn: relay, relay: lab, config: { host: 127.0.0.1, port: 1, password: ${PASSWORD} } }
`;

for (const dialect of dialects) {
  describe.skipIf(!dialect.available)(`relay secrets after a token rotated through the API, on ${dialect.name}`, () => {
    let s: SeededWarden;
    let relayId: string;
    let site: Monitor;
    const work = mkdtempSync(join(tmpdir(), 'warden-relay-secrets-'));
    const api = (path: string, init: RequestInit = {}) =>
      fetch(`${s.url}${path}`, {
        ...init,
        headers: { authorization: `Bearer ${s.writeKey}`, 'content-type': 'application/json', ...init.headers },
      });
    const relayConfig = async (token: string, etag?: string) => {
      const res = await fetch(`${s.url}/api/relay/config`, {
        headers: { authorization: `Bearer ${token}`, ...(etag ? { 'if-none-match': etag } : {}) },
      });
      const body = res.status === 200 ? await res.text() : '';
      return {
        status: res.status,
        etag: res.headers.get('etag') ?? '',
        body,
        config: body ? (JSON.parse(body) as RelayConfig) : undefined,
      };
    };
    const operatorToken = async () => {
      const issued = await runCli(['relays', 'token', 'lab', '--org', 'acme'], s.opened.env);
      expect(issued.code, issued.stderr).toBe(0);
      return issued.stdout.trim();
    };
    const apiRotation = async () => {
      const res = await api(`/api/v1/relays/${relayId}/token`, { method: 'POST' });
      expect(res.status).toBe(200);
      return (await res.json()) as {
        token: string;
        secretsWithheld: { id: string; key: string; name: string; fields: string[] }[];
      };
    };
    const withheldOf = (config: RelayConfig | undefined) =>
      Object.fromEntries((config?.monitors ?? []).map((m) => [m.key, m.secretsWithheld ?? []]));

    beforeAll(async () => {
      s = await startSeededWarden(dialect, CONFIG);
      relayId = (await s.opened.store.relays.findByKey(s.organizationId, 'lab'))?.id as string;
      const created = await api('/api/v1/monitors', {
        method: 'POST',
        body: JSON.stringify({
          key: 'site',
          name: 'Site',
          type: 'http',
          runOn: 'relay',
          relay: 'lab',
          config: { url: 'http://127.0.0.1:1/', headers: { Authorization: HEADER } },
        }),
      });
      expect(created.status).toBe(201);
      site = (await s.opened.store.monitors.findByKey(s.organizationId, 'site')) as Monitor;
    });

    afterAll(async () => {
      await s?.close();
      rmSync(work, { recursive: true, force: true });
    });

    it("gives the operator's token every secret", async () => {
      const { status, body } = await relayConfig(await operatorToken());
      expect(status).toBe(200);
      expect(body).toContain(PASSWORD);
      expect(body).toContain(HEADER);
      expect(body).not.toContain('secretsWithheld');
    });

    it('withholds every secret from a token rotated through the API, names the monitors, and marks them in the config', async () => {
      const rotated = await apiRotation();
      const game = s.monitors.game as Monitor;
      expect(rotated.secretsWithheld.sort((a, b) => a.key.localeCompare(b.key))).toEqual([
        { id: game.id, key: 'game', name: 'Game', fields: ['password'] },
        { id: site.id, key: 'site', name: 'Site', fields: ['headers'] },
      ]);
      const first = await relayConfig(rotated.token);
      expect(first.status).toBe(200);
      expect(first.body).not.toContain(PASSWORD);
      expect(first.body).not.toContain(HEADER);
      expect(first.body).not.toContain('header-secret');
      expect(withheldOf(first.config)).toEqual({ game: ['password'], site: ['headers'] });
      expect(first.config?.monitors.find((m) => m.key === 'site')?.config).toMatchObject({
        url: 'http://127.0.0.1:1/',
      });
      expect((await relayConfig(rotated.token, first.etag)).status).toBe(304);

      // "[redacted]" sent back, or the secret left out, is not the secret sent again.
      const redacted = await api(`/api/v1/monitors/${site.id}`, {
        method: 'PATCH',
        body: JSON.stringify({ name: 'Site!', config: { headers: '[redacted]' } }),
      });
      expect(redacted.status).toBe(200);
      const still = await relayConfig(rotated.token, first.etag);
      expect(still.status).toBe(200);
      expect(still.body).not.toContain(HEADER);
      expect(withheldOf(still.config)).toEqual({ game: ['password'], site: ['headers'] });

      // Sent in full: the relay gets it, and the ETag moves.
      const full = await api(`/api/v1/monitors/${site.id}`, {
        method: 'PATCH',
        body: JSON.stringify({ config: { headers: { Authorization: HEADER } } }),
      });
      expect(full.status).toBe(200);
      expect(JSON.stringify(await full.json())).not.toContain(HEADER);
      const restored = await relayConfig(rotated.token, still.etag);
      expect(restored.status).toBe(200);
      expect(restored.etag).not.toBe(still.etag);
      expect(restored.body).toContain(HEADER);
      expect(restored.body).not.toContain(PASSWORD);
      expect(withheldOf(restored.config)).toEqual({ game: ['password'], site: [] });

      // warden.yaml applied again (`warden config apply`): the file's secrets are the operator's.
      const file = join(work, 'warden.yaml');
      writeFileSync(file, CONFIG);
      const apply = await runCli(['config', 'apply', file], s.opened.env);
      expect(apply.code, apply.stderr).toBe(0);
      const applied = await relayConfig(rotated.token, restored.etag);
      expect(applied.status).toBe(200);
      expect(applied.body).toContain(PASSWORD);
      expect(applied.body).not.toContain('secretsWithheld');
    });

    it('makes the relay agent report a withheld monitor failed, without its secret on disk', async () => {
      const { token } = await apiRotation();
      // One-second intervals (below the minimum, so set directly) to see a check at once.
      const game = (await s.opened.store.monitors.findById((s.monitors.game as Monitor).id)) as Monitor;
      await s.opened.store.monitors.updateSpec(
        game.id,
        { ...game, intervalSec: 1, timeoutMs: 800 },
        game.managedBy,
        game.updatedAt,
      );
      const dataDir = join(work, 'agent');
      const agent = await startRelayAgent({
        url: s.url,
        token,
        dataDir,
        logger: createLogger('silent'),
        submitEveryMs: 100,
        configEveryMs: 200,
      });
      try {
        await vi.waitFor(
          async () => {
            const latest = (
              (await (await api(`/api/v1/monitors/${game.id}`)).json()) as {
                latest: { error: string | null; source: string } | null;
              }
            ).latest;
            expect(latest).toMatchObject({ source: 'relay', error: SECRETS_WITHHELD_ERROR });
          },
          { timeout: 15_000, interval: 100 },
        );
      } finally {
        await agent.stop();
      }
      expect(readFileSync(join(dataDir, 'config.json'), 'utf8')).not.toContain(PASSWORD);
    });

    it('ends the withholding when the operator issues the token with `warden relays token`', async () => {
      const rotated = await apiRotation();
      expect(rotated.secretsWithheld.length).toBe(2);
      expect((await relayConfig(rotated.token)).body).not.toContain(PASSWORD);
      const token = await operatorToken();
      expect((await relayConfig(rotated.token)).status).toBe(401);
      const { body } = await relayConfig(token);
      expect(body).toContain(PASSWORD);
      expect(body).toContain(HEADER);
      expect(body).not.toContain('secretsWithheld');
    });
  });
}
