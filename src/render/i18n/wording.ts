// The words, numbers and durations the human forms of a page share, in the reader's language: HTML, Markdown, RSS,
// og.png and the embed never disagree, and each reads them from one catalogue.
import type { IncidentImpact, IncidentStatus, PageState } from '../../domain/snapshot.js';
import { englishPercent } from './english.js';
import type { MessageKey, Translator } from './index.js';

/** A component's or the page's state in words: the page never relies on colour alone. */
export function stateWord(i18n: Translator, state: PageState): string {
  return i18n.t(`state.${state}`);
}

/** What a day of the uptime strip was, for its label; '' for an operational day, which needs no word. */
export function dayWord(i18n: Translator, state: PageState): string {
  return state === 'operational' ? '' : i18n.t(`day.${state}`);
}

export function incidentStatusWord(i18n: Translator, status: IncidentStatus): string {
  return i18n.t(`incident.status.${status}`);
}

export function impactWord(i18n: Translator, impact: IncidentImpact): string {
  return i18n.t(`incident.impact.${impact}`);
}

/**
 * The page's overall label in the reader's language. The snapshot carries it in English (src/domain/states.ts
 * overallState writes it, and the JSON form and the live stream keep it so); each of its shapes has a message here.
 * A label of another shape (none today) is shown as it is.
 */
export function overallLabel(i18n: Translator, label: string): string {
  const fixed = FIXED_LABELS[label];
  if (fixed) return i18n.t(fixed);
  const partial = /^Partial outage: (\d+) of (\d+) components? down$/.exec(label);
  if (partial) return i18n.t('overall.partialOutageCount', { down: Number(partial[1]), total: Number(partial[2]) });
  const reporting = /^All reporting systems operational \((\d+) not reporting\)$/.exec(label);
  if (reporting) return i18n.t('overall.operationalReporting', { unknown: Number(reporting[1]) });
  return label;
}

const FIXED_LABELS: Record<string, MessageKey> = {
  'Major outage': 'overall.majorOutage',
  'Partial outage': 'overall.partialOutage',
  'Scheduled maintenance in progress': 'overall.maintenance',
  'Degraded performance': 'overall.degraded',
  'Status unknown': 'overall.unknown',
  'All systems operational': 'overall.operational',
};

/**
 * A share 0..1 as a percentage with two decimals, three when two would round a short outage up to a misleading
 * "100.00%" (truncated, so 99.9996% reads 99.999%, never 100%); null reads "no data". In the reader's locale
 * ("99,93 %", "%99,93").
 */
export function uptimeText(i18n: Translator, share: number | null): string {
  if (share === null || !Number.isFinite(share)) return i18n.t('uptime.noData');
  const percent = Math.min(Math.max(share, 0), 1) * 100;
  const two = percent.toFixed(2);
  if (share < 1 && two === '100.00') {
    // The epsilon undoes binary noise (99.996 stored as 99.99599…); the cap keeps 1 − 1e-12 below 100.
    const thousandths = Math.min(Math.floor(percent * 1000 + 1e-6), 99_999);
    return percentIn(i18n)((thousandths / 1000).toFixed(3));
  }
  return percentIn(i18n)(two);
}

/**
 * Writes "99.93" as the locale writes a percentage ("99,93 %", "%99,93"), read once per language from Intl: a page
 * has an uptime for each day of each strip, too many for a formatter call each. Values are at most 100, so no grouping.
 */
function percentIn(i18n: Translator): (digits: string) => string {
  // English without Intl (english.ts): ICU's data stays unloaded on a server of English pages.
  if (i18n.language === 'en') return englishPercent;
  let write = PERCENT_STYLES.get(i18n.language);
  if (!write) {
    const parts = new Intl.NumberFormat(i18n.language, { style: 'percent', minimumFractionDigits: 1 }).formatToParts(
      0.125,
    );
    const at = parts.findIndex((part) => part.type === 'integer');
    const end = parts.findIndex((part) => part.type === 'fraction');
    const before = parts
      .slice(0, at)
      .map((part) => part.value)
      .join('');
    const after = parts
      .slice(end + 1)
      .map((part) => part.value)
      .join('');
    const decimal = parts.find((part) => part.type === 'decimal')?.value ?? '.';
    write = (digits) => before + digits.replace('.', decimal) + after;
    PERCENT_STYLES.set(i18n.language, write);
  }
  return write;
}

const PERCENT_STYLES = new Map<string, (digits: string) => string>();

/** "2 h 15 min", "3 d 4 h", "45 s": how long an incident lasted. */
export function durationText(i18n: Translator, ms: number): string {
  const seconds = Math.max(0, Math.round(ms / 1000));
  if (seconds < 60) return i18n.t('duration.seconds', { seconds });
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return i18n.t('duration.minutes', { minutes });
  const hours = Math.floor(minutes / 60);
  if (hours < 24)
    return minutes % 60 === 0
      ? i18n.t('duration.hours', { hours })
      : i18n.t('duration.hoursMinutes', { hours, minutes: minutes % 60 });
  const days = Math.floor(hours / 24);
  return hours % 24 === 0
    ? i18n.t('duration.days', { days })
    : i18n.t('duration.daysHours', { days, hours: hours % 24 });
}

/** A whole count in the reader's locale ("1,234", "1.234", "1 234"). */
export function countText(i18n: Translator, value: number): string {
  return i18n.number(Math.round(value));
}

/** "42 / 500" or "42": a count (players online, components working), and of how many when known. */
export function countOfText(i18n: Translator, count: number, of: number | null): string {
  return countText(i18n, count) + (of === null ? '' : ` / ${countText(i18n, of)}`);
}

/** "87 / 200 players", "87 players", or null when the monitor reports no players. */
export function playersWithNoun(i18n: Translator, players: number | null, maxPlayers: number | null): string | null {
  if (players === null) return null;
  const count = Math.round(players);
  return maxPlayers === null
    ? i18n.t('players.count', { count })
    : i18n.t('players.ofMax', { count: countText(i18n, count), max: countText(i18n, maxPlayers) });
}
