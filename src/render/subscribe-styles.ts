// The rules of the subscribe block's channel forms (html-subscribe-channels.ts): the hint under a label and the
// answer shown beside the field, on their own so the stylesheet can take them without importing markup.

/** Appended to PAGE_CSS. */
export const SUBSCRIBE_CSS = [
  '.subscribe .field p{margin:0}',
  '.subscribe-choice form{margin-top:10px}',
  '.subscribe .hint{font-size:.875rem;overflow-wrap:anywhere}',
  '.subscribe .answer:empty{display:none}',
  '.subscribe .answer p{padding:10px 12px;border-radius:8px;color:var(--text);overflow-wrap:anywhere}',
  '.subscribe .answer .answer-ok{background:var(--ok-bg);border:1px solid var(--ok)}',
  '.subscribe .answer .answer-error{background:var(--bad-bg);border:1px solid var(--bad)}',
  '.subscribe .answer a{color:var(--link);font-weight:600}',
  '.subscribe input[aria-invalid=true]{border-color:var(--bad)}',
].join('');
