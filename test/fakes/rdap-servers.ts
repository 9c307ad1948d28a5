// The RDAP servers the domain-expiry tests ask, a registry and a registrar on 127.0.0.1, started once per file, with
// what is remembered of RDAP answers forgotten before each test; and the monitor called directly against the registry.
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { ANY_TARGET, PUBLIC_TARGETS_ONLY, type TargetGuard } from '../../src/net/target-guard.js';
import { domainExpiry } from '../../src/probes/domain-expiry.js';
import type { ProbeContext } from '../../src/probes/probe.js';
import { forgetRdapAnswers } from '../../src/probes/rdap.js';
import { probeDirectly } from './probe-runs.js';
import { type FakeRdap, startRdapServer } from './rdap-server.js';

export function rdapServersForEachTest() {
  const rdap = {} as { registry: FakeRdap; registrar: FakeRdap };
  beforeAll(async () => {
    rdap.registry = await startRdapServer();
    rdap.registrar = await startRdapServer();
  });
  afterAll(async () => {
    await rdap.registry.close();
    await rdap.registrar.close();
  });
  beforeEach(() => {
    forgetRdapAnswers(ANY_TARGET);
    forgetRdapAnswers(PUBLIC_TARGETS_ONLY);
  });

  const check = (config: Record<string, unknown>, timeoutMs = 2000) =>
    probeDirectly(domainExpiry, { rdapUrl: rdap.registry.base, ...config }, timeoutMs);
  const context = (guard: TargetGuard = ANY_TARGET, timeoutMs = 2000): ProbeContext => ({
    signal: AbortSignal.timeout(timeoutMs),
    timeoutMs,
    guard,
  });
  return { rdap, check, context };
}
