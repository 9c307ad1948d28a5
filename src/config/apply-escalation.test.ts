// warden.yaml's escalation policies: created, left alone on a second apply, changed and deleted by config sync through
// the policy verbs; the API cannot change what the file manages, and a step naming no channel of the file is refused.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { testContext } from '../../test/seed.js';
import { dialects, type OpenedStore } from '../../test/store-dialects.js';
import { ConflictError } from '../domain/errors.js';
import { createPolicy, deletePolicy, updatePolicy } from '../services/escalation/policies.js';
import { applyConfig } from './apply.js';
import { ConfigError, parseConfigText } from './load.js';

const file = (policies: string) => `
organization: { key: acme, name: Acme }
monitors:
  - { key: lobby, name: Lobby, type: tcp, config: { host: mc.example.com, port: 25565 } }
notifications:
  - { key: chat, name: Chat, type: ntfy, config: { url: "https://ntfy.sh/acme-chat" } }
  - { key: pager, name: Pager, type: ntfy, config: { url: "https://ntfy.sh/acme-pager" }, rules: { events: [] } }
escalationPolicies:
${policies}`;
const ONCALL = `  - { key: oncall, name: On call, steps: [{ afterMin: 0, channels: [chat] }, { afterMin: 15, channels: [pager] }] }
  - { key: lobby, name: Lobby first, monitors: [lobby], steps: [{ afterMin: 0, channels: [chat, pager] }] }
`;

for (const dialect of dialects) {
  describe.skipIf(!dialect.available)(`warden.yaml escalation policies on ${dialect.name}`, () => {
    let opened: OpenedStore;
    const apply = (yaml: string, now = 1000) =>
      applyConfig(testContext(opened.store, { now: () => now }), parseConfigText(yaml, 'test.yaml', {}));
    const policies = async (organizationId: string) =>
      (await opened.store.escalationPolicies.list(organizationId)).map((p) => ({
        key: p.key,
        name: p.name,
        steps: p.steps,
        monitors: p.monitors,
        managedBy: p.managedBy,
      }));
    beforeEach(async () => {
      opened = await dialect.open();
    });
    afterEach(async () => {
      await opened.cleanup();
    });

    it('creates the policies the file declares, managed by it, and a second apply changes nothing', async () => {
      const report = await apply(file(ONCALL));
      expect(report.created).toEqual(expect.arrayContaining(['escalation policy oncall', 'escalation policy lobby']));
      expect(await policies(report.organization.id)).toEqual([
        {
          key: 'lobby',
          name: 'Lobby first',
          steps: [{ afterMin: 0, channels: ['chat', 'pager'] }],
          monitors: ['lobby'],
          managedBy: 'config',
        },
        {
          key: 'oncall',
          name: 'On call',
          steps: [
            { afterMin: 0, channels: ['chat'] },
            { afterMin: 15, channels: ['pager'] },
          ],
          monitors: null,
          managedBy: 'config',
        },
      ]);
      const again = await apply(file(ONCALL), 2000);
      expect([...again.created, ...again.updated, ...again.deleted]).toEqual([]);
      expect(again.unchanged).toBeGreaterThanOrEqual(2);
      const stored = await opened.store.escalationPolicies.findByKey(report.organization.id, 'oncall');
      expect(stored?.updatedAt).toBe(1000);
    });

    it('changes a policy, deletes one no longer listed, and the API cannot change or delete what the file manages', async () => {
      const { organization } = await apply(file(ONCALL));
      const ctx = { ...testContext(opened.store, { now: () => 2000 }), organizationId: organization.id };
      await expect(updatePolicy(ctx, { id: 'oncall', name: 'Mine' })).rejects.toBeInstanceOf(ConflictError);
      await expect(deletePolicy(ctx, { id: 'lobby' })).rejects.toBeInstanceOf(ConflictError);
      const report = await apply(
        file(
          '  - { key: oncall, name: On call, steps: [{ afterMin: 0, channels: [pager] }, { afterMin: 30, channels: [chat] }] }\n',
        ),
        3000,
      );
      expect(report.updated).toEqual(['escalation policy oncall']);
      expect(report.deleted).toEqual(['escalation policy lobby']);
      expect(await policies(organization.id)).toEqual([
        {
          key: 'oncall',
          name: 'On call',
          steps: [
            { afterMin: 0, channels: ['pager'] },
            { afterMin: 30, channels: ['chat'] },
          ],
          monitors: null,
          managedBy: 'config',
        },
      ]);
    });

    it("takes over an API policy the file now declares, and leaves the API's others alone", async () => {
      const { organization } = await apply(file('  []'));
      const ctx = { ...testContext(opened.store, { now: () => 2000 }), organizationId: organization.id };
      await createPolicy(ctx, { key: 'oncall', name: 'Made by hand', steps: [{ afterMin: 0, channels: ['chat'] }] });
      await createPolicy(ctx, { key: 'mine', name: 'Mine', steps: [{ afterMin: 0, channels: ['pager'] }] });
      const report = await apply(file(ONCALL), 3000);
      expect(report.updated).toEqual(['escalation policy oncall']);
      const after = await policies(organization.id);
      expect(after.map((p) => [p.key, p.name, p.managedBy])).toEqual([
        ['lobby', 'Lobby first', 'config'],
        ['mine', 'Mine', 'api'],
        ['oncall', 'On call', 'config'],
      ]);
      expect((await apply(file('  []'), 4000)).deleted.sort()).toEqual([
        'escalation policy lobby',
        'escalation policy oncall',
      ]);
      expect((await policies(organization.id)).map((p) => p.key)).toEqual(['mine']);
    });
  });
}

describe('warden.yaml escalation policies, checked', () => {
  it('names a step channel, a monitor or a key the file does not declare, and steps out of order', () => {
    const problems = ((): string[] => {
      try {
        parseConfigText(
          file(`  - { key: oncall, name: On call, monitors: [lobbby], steps: [{ afterMin: 0, channels: [chatt] }] }
  - { key: oncall, name: Again, steps: [{ afterMin: 10, channels: [chat] }, { afterMin: 5, channels: [pager] }] }
`),
          'test.yaml',
          {},
        );
      } catch (error) {
        if (error instanceof ConfigError) return error.problems;
        throw error;
      }
      return [];
    })();
    expect(problems).toEqual(
      expect.arrayContaining([
        expect.stringMatching(
          /^escalationPolicies\[0\]\.steps\[0\]\.channels\[0\]: no notification channel with key "chatt"/,
        ),
        expect.stringMatching(/^escalationPolicies\[0\]\.monitors\[0\]: no monitor with key "lobbby"/),
        expect.stringMatching(/^escalationPolicies\[1\]\.key: duplicate escalation policy key "oncall"/),
        expect.stringMatching(/^escalationPolicies\[1\]\.steps: each step comes later than the one before/),
      ]),
    );
  });
});
