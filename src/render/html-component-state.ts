// Why a component shows the state it does, when that is not its monitor's: an incident or maintenance, said beside the check's own result.
import type { SnapshotComponent, SnapshotIncident, SnapshotMaintenance } from '../domain/snapshot.js';
import { impactToPageState, monitorToPageState } from '../domain/states.js';
import { escapeHtml } from './html-layout.js';
import type { Translator } from './i18n/index.js';
import { plainText } from './page-wording.js';

/** What the components section knows beyond each component: what raises components above their monitors. */
export interface ComponentContext {
  activeIncidents: readonly SnapshotIncident[];
  /** Maintenance windows in progress. */
  maintenance: readonly SnapshotMaintenance[];
}

export interface StateReason {
  /** Since when the component has shown its state: the incident's or window's start when one raised it, else its monitor's. */
  since: number | null;
  /**
   * "Check passing · affected by incident “Lag”": both truths, when an incident or maintenance covers a component with
   * a monitor, so a state the incident sets never stands beside a check text that seems to deny it; '' otherwise.
   * The check's own message is in it when the check fails or is degraded.
   */
  noteHtml: string;
}

export function stateReason(i18n: Translator, component: SnapshotComponent, context: ComponentContext): StateReason {
  const own = component.monitorState === null ? 'operational' : monitorToPageState(component.monitorState);
  const names = (refs: readonly { id: string }[]) => refs.some((c) => c.id === component.id);
  const windows = component.state === 'maintenance' ? context.maintenance.filter((w) => names(w.components)) : [];
  const incidents = windows.length > 0 ? [] : context.activeIncidents.filter((i) => names(i.components));
  // The state came from them when it is not the monitor's: then "since" is when the first that sets it began.
  const setting = [
    ...windows.map((w) => w.startsAt),
    ...incidents.filter((i) => impactToPageState(i.impact) === component.state).map((i) => i.startedAt),
  ];
  const since = component.state !== own && setting.length > 0 ? Math.min(...setting) : component.since;
  // Without a monitor there is no check to speak of: the state and its since say it all.
  if (component.monitorState === null || (windows.length === 0 && incidents.length === 0))
    return { since, noteHtml: '' };
  const reason =
    windows.length > 0
      ? i18n.t('page.component.byMaintenance')
      : incidents.length === 1
        ? i18n.t('page.component.byIncident', { title: plainText((incidents[0] as SnapshotIncident).title) })
        : i18n.t('page.component.byIncidents', { count: incidents.length });
  const note = i18n.t('page.component.checkNote', { check: checkText(i18n, component), reason });
  return { since, noteHtml: `<p class="check-note" data-testid="check-note">${escapeHtml(note)}</p>` };
}

function checkText(i18n: Translator, component: SnapshotComponent): string {
  const message = component.live?.message ? plainText(component.live.message) : '';
  switch (component.monitorState) {
    case 'up':
      return i18n.t('page.component.checkPassing');
    case 'degraded':
      return message ? i18n.t('page.component.checkDegradedWith', { message }) : i18n.t('page.component.checkDegraded');
    case 'down':
      return message
        ? i18n.t('page.component.checkFailingWith', { error: message })
        : i18n.t('page.component.checkFailing');
    default:
      return i18n.t('page.component.checkUnknown');
  }
}
