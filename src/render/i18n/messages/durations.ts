// How long something lasted, shortest unit first, in the international abbreviations (s, min, h, d): English, Spanish
// and Portuguese write durations alike, so their catalogues share these messages.
export const ABBREVIATED_DURATIONS = {
  'duration.seconds': '{seconds} s',
  'duration.minutes': '{minutes} min',
  'duration.hours': '{hours} h',
  'duration.hoursMinutes': '{hours} h {minutes} min',
  'duration.days': '{days} d',
  'duration.daysHours': '{days} d {hours} h',
} as const;
