// `warden export`: an organization with one of everything, exported, applied to an empty database and exported again;
// its secrets as variables, and what the file cannot carry named.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { contents, ORGANIZATION, SECRETS } from '../../test/fixtures/export-organization.js';
import { seed, testContext } from '../../test/seed.js';
import { dialects, type OpenedStore } from '../../test/store-dialects.js';
import { exportCommand } from '../cli/commands/export.js';
import { verifyPassword } from '../domain/passwords.js';
import { createComponent } from '../services/components/write.js';
import { createPolicy } from '../services/escalation/policies.js';
import { createIncident } from '../services/incidents/write.js';
import { createMaintenance } from '../services/maintenance/write.js';
import { createMonitor } from '../services/monitors/write.js';
import { createChannel, deleteChannel } from '../services/notifications/write.js';
import { putPageAsset } from '../services/pages/assets.js';
import { applyConfig } from './apply.js';
import { exportConfig } from './export.js';
import { parseConfigText } from './load.js';

const T0 = Date.parse('2026-12-01T12:00:00Z');

for (const dialect of dialects) {
  describe.skipIf(!dialect.available)(`warden export on ${dialect.name}`, () => {
    let source: OpenedStore;
    let target: OpenedStore;
    let dir: string;
    const saved = { ...process.env };
    let stderr = '';

    beforeEach(async () => {
      [source, target] = await Promise.all([dialect.open(), dialect.open()]);
      dir = mkdtempSync(join(tmpdir(), 'warden-export-'));
      const { report } = await seed(source.store, ORGANIZATION, T0);
      // What the API makes beside the file: objects without keys, a name that looks like a variable.
      const api = { ...testContext(source.store, { now: () => T0 }), organizationId: report.organization.id };
      await createMonitor(api, {
        key: 'costs',
        name: 'Costs ${NOT_A_VARIABLE} and $${ALSO_NOT}',
        type: 'tcp',
        config: { host: 'db.example.com', port: 5432 },
      });
      await createComponent(
        { ...api },
        { slug: 'acme', name: 'Database', monitor: 'costs', description: 'Needs ${DB_HOST}' },
      );
      await createComponent(
        { ...api },
        { slug: 'acme', name: 'Survival', join: { address: 'play.example.com:25570' } },
      );
      await createComponent({ ...api }, { slug: 'acme', name: 'Staging', join: 'hidden' });
      await createIncident(api, {
        slug: 'acme',
        title: 'Database slow',
        impact: 'critical',
        message: 'Looking into it.',
        components: ['Database'],
      });
      await createMaintenance(api, {
        slug: 'acme',
        title: 'Database upgrade',
        startsAt: T0 + 86_400_000,
        endsAt: T0 + 90_000_000,
      });
      await createMaintenance(api, {
        slug: 'acme',
        title: 'Weekly restart',
        startsAt: T0,
        recurrence: [{ cron: '0 4 * * 0', timezone: 'Europe/Berlin', durationMin: 20 }],
        monitors: ['costs'],
      });
      Object.assign(process.env, source.env, { LOG_LEVEL: 'silent' });
      stderr = '';
      vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => {
        stderr += String(chunk);
        return true;
      });
    });
    afterEach(async () => {
      vi.restoreAllMocks();
      process.env = { ...saved };
      rmSync(dir, { recursive: true, force: true });
      await Promise.all([source.cleanup(), target.cleanup()]);
    });

    it('gives the same objects when the export is applied to an empty database, and the same file when exported again', async () => {
      const file = join(dir, 'warden.yaml');
      await exportCommand().parseAsync(['--org', 'acme', '-o', file], { from: 'user' });
      const text = readFileSync(file, 'utf8');

      // No secret is in the file; each is a placeholder the header and standard error name.
      for (const [variable, secret] of Object.entries(SECRETS))
        if (variable !== 'MONITOR_API_HEADERS_ACCEPT') expect(text).not.toContain(secret.replace(/^Bearer /, ''));
      const body = text.replace(/^#.*\n/gm, '');
      const named = [...body.matchAll(/\$\{([A-Z0-9_]+)\}/g)].map((m) => m[1]);
      expect(new Set(named)).toEqual(new Set(Object.keys(SECRETS)));
      for (const variable of Object.keys(SECRETS)) expect(text).toMatch(new RegExp(`^#\\s+${variable}\\s+\\S`, 'm'));
      expect(stderr).toContain('exported organization acme');
      expect(stderr).toContain('NOTIFY_OPS_SECRET');
      // What cannot be exported is said.
      expect(text).toMatch(/Push tokens are stored only as hashes: the push monitors \(backup\) get new tokens/);
      expect(text).toMatch(/warden relays token KEY` for home-lab/);
      // Defaults are left out; what differs from them is kept.
      expect(text).not.toMatch(/intervalSec: 60\b|timeoutMs: 10000|enabled: true|aiPolicy: allow|method: GET/);
      expect(text).toContain('enabled: false');
      expect(text).toMatch(
        /recurrence:\n\s+- cron: 0 4 \* \* 0\n\s+timezone: Europe\/Berlin\n\s+durationMin: 20\n\s+monitors:\n\s+- costs\n/,
      );
      expect(text).toMatch(/join:\n\s+address: play.example.com:25570/);
      expect(text).toContain('join: hidden');
      expect(text).toContain('showUnreachable: true');

      await applyConfig(testContext(target.store, { now: () => T0 + 1000 }), parseConfigText(text, file, SECRETS));
      const [before, after] = await Promise.all([contents(source.store), contents(target.store)]);
      expect(after).toEqual(before);
      for (const field of ['monitors', 'pages', 'channels', 'escalationPolicies'] as const)
        expect(after[field].length).toBeGreaterThan(1);
      // A policy for every monitor has no monitors field; one naming monitors keeps them.
      expect(text).toMatch(/escalationPolicies:\n\s+- key: games\n\s+name: Game servers\n\s+steps:\n/);
      expect(text).toMatch(
        /- key: oncall\n\s+name: On call\n\s+steps:\n(?:\s+.*\n)*?\s+- afterMin: 60\n\s+channels:\n\s+- ntfy\n/,
      );
      expect(text).not.toMatch(/key: oncall\n(?:\s{4}.*\n)*?\s{4}monitors:/);
      const privatePage = await target.store.pages.findBySlug('private');
      expect(await verifyPassword(SECRETS.PAGE_PRIVATE_PASSWORD as string, privatePage?.passwordHash ?? '')).toBe(true);

      const organizationId = (await target.store.organizations.list()).find((o) => o.key === 'acme')?.id;
      const again = await exportConfig({ ...testContext(target.store), organizationId });
      expect(again.text).toBe(text);
    });

    it('names what the file cannot carry: uploaded images, channels deleted while still named (by monitors and policies)', async () => {
      const organizationId = (await source.store.organizations.list()).find((o) => o.key === 'acme')?.id;
      const ctx = { ...testContext(source.store, { now: () => T0 }), organizationId };
      const png = Buffer.from(
        '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8ffff3f0005fe02fea7d6a0b50000000049454e44ae426082',
        'hex',
      );
      await putPageAsset(ctx, { slug: 'acme', name: 'logo', body: png });
      // A channel deleted through the API stays named by the monitor that named it, where the file cannot name it.
      await createChannel(ctx, {
        key: 'pager',
        name: 'Pager',
        type: 'ntfy',
        config: { url: 'https://ntfy.sh/acme-pager' },
      });
      await createMonitor(ctx, {
        key: 'paged',
        name: 'Paged',
        type: 'tcp',
        config: { host: 'example.com', port: 22 },
        notify: ['pager', 'ops'],
      });
      // An API policy escalating to it keeps its other steps; one left with none is not written.
      await createPolicy(ctx, {
        key: 'night',
        name: 'Night',
        steps: [
          { afterMin: 0, channels: ['pager', 'ops'] },
          { afterMin: 30, channels: ['pager'] },
        ],
      });
      await createPolicy(ctx, { key: 'pager-only', name: 'Pager only', steps: [{ afterMin: 0, channels: ['pager'] }] });
      await deleteChannel(ctx, { key: 'pager' });
      const { text } = await exportConfig(ctx);
      expect(text).toMatch(/^# +- Escalation policy night names deleted notification channel\(s\) pager: left out/m);
      expect(text).toMatch(/^# +- Escalation policy pager-only has no step left with a channel: not in this file\.$/m);
      expect(text).toMatch(
        /- key: night\n\s+name: Night\n\s+steps:\n\s+- afterMin: 0\n\s+channels:\n\s+- ops\n(?!\s+- afterMin)/,
      );
      expect(text).not.toContain('key: pager-only');
      expect(text).toMatch(/^# +- Page acme: the uploaded logo image\(s\) are not in this file/m);
      expect(text).toMatch(
        /^# +- Monitor paged names deleted notification channel\(s\) pager: left out of its notify\.$/m,
      );
      expect(text).toMatch(/- key: paged\n(?: {4}.*\n)*? {4}notify:\n {6}- ops\n/);
      expect(text).toMatch(/^# +- Check history, users and members, API keys/m);
    });
  });
}
