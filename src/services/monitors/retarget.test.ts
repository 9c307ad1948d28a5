// retargetIssues for every type of the registry: a moved target or relay needs every stored secret sent again.
import { describe, expect, it } from 'vitest';
import type { ProbeDefinition } from '../../probes/probe.js';
import { probeRegistry } from '../../probes/registry.js';
import { retargetIssues } from './retarget.js';
import { REDACTED } from './view.js';

const withSecrets = (Object.entries(probeRegistry) as [string, ProbeDefinition][]).filter(
  ([, d]) => d.secrets.length > 0,
);

/** A stored config of the type: every target and secret set. */
function stored(definition: ProbeDefinition): Record<string, unknown> {
  return Object.fromEntries([
    ...definition.targets.map((f) => [f, `old-${f}`]),
    ...definition.secrets.map((f) => [f, `secret-${f}`]),
  ]);
}

const redactedAll = (definition: ProbeDefinition) => Object.fromEntries(definition.secrets.map((f) => [f, REDACTED]));
const paths = (definition: ProbeDefinition) => definition.secrets.map((f) => `config.${f}`);

describe('retargetIssues', () => {
  it('has types with secrets to check', () => expect(withSecrets.length).toBeGreaterThan(0));

  for (const [type, definition] of withSecrets) {
    describe(type, () => {
      const current = { config: stored(definition), relayId: null };

      for (const target of definition.targets) {
        it(`names every secret kept as "${REDACTED}" or left out when ${target} changes`, () => {
          const next = { config: { ...current.config, [target]: `new-${target}` }, relayId: null };
          const redacted = retargetIssues(definition, current, next, {
            [target]: `new-${target}`,
            ...redactedAll(definition),
          });
          expect(redacted.map((i) => i.path)).toEqual(paths(definition));
          expect(redacted[0]?.message).toContain(target);
          expect(retargetIssues(definition, current, next, { [target]: `new-${target}` }).map((i) => i.path)).toEqual(
            paths(definition),
          );
        });
      }

      it('takes the secrets sent again in full, or removed, along to a new target', () => {
        const target = definition.targets[0] as string;
        const next = { config: { ...current.config, [target]: 'elsewhere' }, relayId: null };
        const sentAgain = Object.fromEntries(definition.secrets.map((f) => [f, `secret-${f}`]));
        expect(retargetIssues(definition, current, next, { [target]: 'elsewhere', ...sentAgain })).toEqual([]);
        const removed = Object.fromEntries(definition.secrets.map((f) => [f, null]));
        expect(retargetIssues(definition, current, next, { [target]: 'elsewhere', ...removed })).toEqual([]);
      });

      it(`keeps "${REDACTED}" secrets while every target stays`, () => {
        expect(
          retargetIssues(
            definition,
            current,
            { config: { ...current.config, other: 1 }, relayId: null },
            redactedAll(definition),
          ),
        ).toEqual([]);
        expect(retargetIssues(definition, current, current, undefined)).toEqual([]);
      });

      it('names every kept secret when the monitor moves onto another relay, but not back to the server', () => {
        const onRelay = { config: current.config, relayId: 'rel_a' };
        expect(retargetIssues(definition, current, onRelay, undefined).map((i) => i.path)).toEqual(paths(definition));
        expect(
          retargetIssues(definition, onRelay, { ...onRelay, relayId: 'rel_b' }, redactedAll(definition))[0]?.message,
        ).toContain('relay');
        expect(retargetIssues(definition, onRelay, onRelay, redactedAll(definition))).toEqual([]);
        expect(retargetIssues(definition, onRelay, current, redactedAll(definition))).toEqual([]);
      });

      it('asks nothing for a secret that was never stored', () => {
        const next = { config: { [definition.targets[0] as string]: 'elsewhere' }, relayId: null };
        expect(retargetIssues(definition, { config: {}, relayId: null }, next, undefined)).toEqual([]);
      });
    });
  }
});
