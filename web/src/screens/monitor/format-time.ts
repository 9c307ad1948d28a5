// Times as the monitor screens show them: the browser's locale and time zone, to the second.
const FORMAT = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'medium' });

export function formatTime(epochMs: number): string {
  return FORMAT.format(new Date(epochMs));
}
