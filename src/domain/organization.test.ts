// Each organization's probe-target policy: its own setting, else the global one, else one organization or several.
import { describe, expect, it } from 'vitest';
import { DEMO_ORGANIZATION_KEY, type Organization, probeTargetPolicies } from './organization.js';

const org = (key: string, probePrivateTargets: Organization['probePrivateTargets'] = null): Organization => ({
  id: `org_${key}`,
  key,
  name: key,
  probePrivateTargets,
  managedBy: 'api',
  createdAt: 0,
  monthlyReport: false,
});

describe('probeTargetPolicies', () => {
  it('allows a single organization under auto, and denies every organization without its own setting once there are more', () => {
    expect(probeTargetPolicies([org('home')], 'auto')).toEqual(new Map([['org_home', 'allow']]));
    expect(probeTargetPolicies([org('home'), org('tenant')], 'auto')).toEqual(
      new Map([
        ['org_home', 'deny'],
        ['org_tenant', 'deny'],
      ]),
    );
  });

  it("lets an organization's own setting win over the global one, either way", () => {
    const several = [org('home', 'allow'), org('tenant'), org('strict', 'deny')];
    expect(probeTargetPolicies(several, 'auto')).toEqual(
      new Map([
        ['org_home', 'allow'],
        ['org_tenant', 'deny'],
        ['org_strict', 'deny'],
      ]),
    );
    expect(probeTargetPolicies(several, 'allow').get('org_tenant')).toBe('allow');
    expect(probeTargetPolicies(several, 'allow').get('org_strict')).toBe('deny');
    expect(probeTargetPolicies([org('home')], 'deny').get('org_home')).toBe('deny');
    expect(probeTargetPolicies([org('home', 'allow')], 'deny').get('org_home')).toBe('allow');
  });

  it('does not count the built-in demo, which allows for itself', () => {
    const policies = probeTargetPolicies([org(DEMO_ORGANIZATION_KEY, 'allow'), org('home')], 'auto');
    expect(policies).toEqual(
      new Map([
        ['org_demo', 'allow'],
        ['org_home', 'allow'],
      ]),
    );
  });
});
