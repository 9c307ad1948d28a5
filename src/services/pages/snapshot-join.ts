// A component's join button and badges in the snapshot: from its setting, its monitor and the monitor's last check.
import { joinAction } from '../../domain/join.js';
import { joinBadges } from '../../domain/join-badges.js';
import type { Monitor } from '../../domain/monitor.js';
import type { Component } from '../../domain/page.js';
import type { SnapshotComponent } from '../../domain/snapshot.js';

export function componentJoin(
  component: Pick<Component, 'join'>,
  monitor: Pick<Monitor, 'type' | 'config' | 'lastResult'> | undefined,
): Pick<SnapshotComponent, 'join' | 'badges'> {
  // What a failed check carries is about the failure, not the server: it neither names ports nor makes badges.
  const data = monitor?.lastResult?.ok ? (monitor.lastResult.data ?? null) : null;
  const source = monitor ? { type: monitor.type, config: monitor.config, data } : null;
  return { join: joinAction(source, component.join), badges: monitor?.lastResult?.ok ? joinBadges(data) : [] };
}
