// Text as every database can store it: PostgreSQL refuses U+0000 in text columns (and the whole transaction with it).

/** The text with each NUL character replaced by U+FFFD (the replacement character). */
export function storableText(text: string): string {
  return text.includes('\u0000') ? text.replaceAll('\u0000', '\uFFFD') : text;
}
