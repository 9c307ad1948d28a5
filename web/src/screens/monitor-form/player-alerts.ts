// A game monitor's player alerts as the form holds them (text for the numbers, a switch, the ticked changes) and as
// the API takes them (`playerAlerts`: the rules set, or null for none); the choices of `changes` are read from the
// schema of GET /api/v1/monitor-types, so a field the API adds there shows without a change here.
import type { JsonSchema } from './schema-form';

export interface PlayerAlertValues {
  fullForMin: string;
  queueAbove: string;
  bandMin: string;
  bandMax: string;
  emptyFromUsual: boolean;
  forMin: string;
  changes: string[];
}

/** What the API sends as `playerAlerts` (null: none set). */
export interface PlayerAlertsJson {
  fullForMin?: number;
  queueAbove?: number;
  band?: { min?: number; max?: number };
  emptyFromUsual?: boolean;
  forMin?: number;
  changes?: string[];
}

/** The form's names of the fields, for the API's errors (`body.playerAlerts.band` → under the band). */
export const PLAYER_ALERT_FIELDS = [
  'playerAlerts.fullForMin',
  'playerAlerts.queueAbove',
  'playerAlerts.band.min',
  'playerAlerts.band.max',
  'playerAlerts.band',
  'playerAlerts.emptyFromUsual',
  'playerAlerts.forMin',
  'playerAlerts.changes',
  'playerAlerts',
] as const;

/** The changes the API announced last time it was asked: used when the schema does not list them. */
const KNOWN_CHANGES = ['version', 'map'];

const CHANGE_LABELS: Record<string, string> = { version: 'Version', map: 'Map', wipe: 'Wipe' };

export function playerAlertValues(stored: PlayerAlertsJson | null | undefined): PlayerAlertValues {
  const text = (n: number | undefined) => (n === undefined ? '' : String(n));
  return {
    fullForMin: text(stored?.fullForMin),
    queueAbove: text(stored?.queueAbove),
    bandMin: text(stored?.band?.min),
    bandMax: text(stored?.band?.max),
    emptyFromUsual: stored?.emptyFromUsual === true,
    forMin: text(stored?.forMin),
    changes: stored?.changes ?? [],
  };
}

/** A number as typed: a number when it reads as one, the text otherwise (the API then names the field). */
function numberOf(text: string): number | string | undefined {
  const trimmed = text.trim();
  if (trimmed === '') return undefined;
  const n = Number(trimmed);
  return Number.isFinite(n) ? n : trimmed;
}

/** The values as `playerAlerts`: only what is set, and null when nothing is (no player alerts). */
export function playerAlertsJson(values: PlayerAlertValues): PlayerAlertsJson | null {
  const json: Record<string, unknown> = {};
  const put = (name: string, value: unknown) => {
    if (value !== undefined) json[name] = value;
  };
  put('fullForMin', numberOf(values.fullForMin));
  put('queueAbove', numberOf(values.queueAbove));
  const min = numberOf(values.bandMin);
  const max = numberOf(values.bandMax);
  if (min !== undefined || max !== undefined)
    json['band'] = { ...(min === undefined ? {} : { min }), ...(max === undefined ? {} : { max }) };
  if (values.emptyFromUsual) json['emptyFromUsual'] = true;
  put('forMin', numberOf(values.forMin));
  if (values.changes.length > 0) json['changes'] = values.changes;
  return Object.keys(json).length === 0 ? null : (json as PlayerAlertsJson);
}

/** The schema of `playerAlerts` among the shared fields, if the server describes it. */
export function playerAlertsSchemaOf(fields: JsonSchema): JsonSchema | undefined {
  return fields.properties?.['playerAlerts'];
}

/** The changes a monitor can announce, each with its label: the schema's enum, else the ones known. */
export function changeChoices(schema: JsonSchema | undefined): { value: string; label: string }[] {
  const listed = schema?.properties?.['changes']?.items?.enum?.map(String);
  return (listed && listed.length > 0 ? listed : KNOWN_CHANGES).map((value) => ({
    value,
    label: CHANGE_LABELS[value] ?? value.charAt(0).toUpperCase() + value.slice(1),
  }));
}

/** The default of `forMin` the schema's description gives ("… (default 5)."), for the placeholder. */
export function defaultForMin(schema: JsonSchema | undefined): string | undefined {
  return schema?.properties?.['forMin']?.description?.match(/default (\d+)/)?.[1];
}
