// English, the default language (written as en-GB), formatted without Intl where its output is fixed: whole numbers,
// dates and times in UTC, percentages and the cardinal plural. The first Intl number or date formatter of a process
// loads ICU's data, ~6 MiB of memory held for as long as the process runs (docs/operations.md, Memory); a server whose
// pages are English and in UTC now never loads it. What is written here is exactly what Intl writes (english.test.ts
// compares them over many values); anything else returns undefined, and the caller asks Intl.

/** en-GB's short month names, as ICU writes them ("Sept", not "Sep"). */
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sept', 'Oct', 'Nov', 'Dec'] as const;

/** A whole number as `new Intl.NumberFormat('en-GB').format` writes it ("-1,234,567"); undefined past 2^53. */
export function englishInteger(value: number): string | undefined {
  if (!Number.isSafeInteger(value)) return undefined;
  if (Object.is(value, -0)) return '-0';
  const digits = String(Math.abs(value));
  let text = '';
  for (let i = 0; i < digits.length; i++) {
    if (i > 0 && (digits.length - i) % 3 === 0) text += ',';
    text += digits[i];
  }
  return value < 0 ? `-${text}` : text;
}

export type EnglishDateStyle = 'dateTime' | 'date' | 'time';

/**
 * A point in time in UTC as en-GB's Intl.DateTimeFormat writes the translator's styles: `dateTime` "5 Sept 2026, 07:03
 * UTC", `date` "5 Sept 2026", `time` "07:03". Undefined outside the years 1000–9999 (and for an invalid time).
 */
export function englishUtcDate(ms: number, style: EnglishDateStyle): string | undefined {
  const at = new Date(ms);
  const year = at.getUTCFullYear();
  if (!(year >= 1000 && year <= 9999)) return undefined;
  const time = `${twoDigits(at.getUTCHours())}:${twoDigits(at.getUTCMinutes())}`;
  if (style === 'time') return time;
  const day = `${at.getUTCDate()} ${MONTHS[at.getUTCMonth()]} ${year}`;
  return style === 'date' ? day : `${day}, ${time} UTC`;
}

function twoDigits(value: number): string {
  return value < 10 ? `0${value}` : String(value);
}

/** "99.93" as en-GB writes a percentage: "99.93%". */
export function englishPercent(digits: string): string {
  return `${digits}%`;
}

/** English's cardinal plural (CLDR: one is exactly 1, with no fraction digits), as Intl.PluralRules selects it. */
export const ENGLISH_CARDINAL = {
  select: (value: number): Intl.LDMLPluralRule => (Math.abs(value) === 1 ? 'one' : 'other'),
};
