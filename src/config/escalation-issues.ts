// warden.yaml's escalation policies (docs/notifications.md, "Escalation and acknowledgement"): keys once each, every
// step's channels among the file's notifications, and the monitors a policy covers among the file's monitors.
interface PolicyOutline {
  key?: string | undefined;
  steps?: { channels?: string[] | undefined }[] | undefined;
  monitors?: string[] | undefined;
}

export function escalationIssues(
  policies: readonly PolicyOutline[],
  declared: { channel(key: string): boolean; monitor(key: string): boolean },
  issue: (path: PropertyKey[], message: string) => void,
): void {
  const keys = new Set<string>();
  policies.forEach((policy, p) => {
    const at = ['escalationPolicies', p];
    if (policy.key !== undefined) {
      if (keys.has(policy.key)) issue([...at, 'key'], `duplicate escalation policy key "${policy.key}"`);
      keys.add(policy.key);
    }
    policy.steps?.forEach((step, s) => {
      step.channels?.forEach((key, c) => {
        if (!declared.channel(key))
          issue([...at, 'steps', s, 'channels', c], `no notification channel with key "${key}" in notifications`);
      });
    });
    policy.monitors?.forEach((key, m) => {
      if (!declared.monitor(key)) issue([...at, 'monitors', m], `no monitor with key "${key}" in monitors`);
    });
  });
}
