// The API's shapes the dashboard names, taken from the generated schema (never written twice).
import type { components, paths } from './schema';

type Schemas = components['schemas'];

export type Me = Schemas['Account'];
export type Role = Me['organizations'][number]['role'];
export type AuthConfig = Schemas['AuthConfig'];
export type InvitationPreview = Schemas['InvitationPreview'];
export type MonitorView = Schemas['Monitor'];
/** A page of monitors: `nextCursor` and `total` are there when the request gave `limit`. */
export type MonitorPage = Schemas['MonitorList'];
export type MonitorQuery = NonNullable<paths['/api/v1/monitors']['get']['parameters']['query']>;
export type SparklinePoint = Schemas['MonitorSparklines']['monitors'][number]['points'][number];
/** A monitor's strips in the list: hourly points, the uptime of those 24 hours, and its last checks as beats. */
export type MonitorStrip = Schemas['MonitorSparklines']['monitors'][number];
export type MonitorBeat = MonitorStrip['beats'][number];
