// The look of who is online (html-players.ts), on the page and in the widget; no imports, so both stylesheets take it.

/** The page's rules for the list (added to PAGE_CSS): a quiet toggle under the facts, names in columns. */
export const PLAYERS_PAGE_CSS = [
  '.who{margin:6px 0 0;font-size:.875rem}',
  '.who>summary{display:inline-block;cursor:pointer;padding:2px 10px;border:1px solid var(--border);border-radius:999px;color:var(--text);font-weight:500;list-style:none}',
  '.who>summary::-webkit-details-marker{display:none}',
  '.who>summary::after{content:" ▸";color:var(--muted)}',
  '.who[open]>summary::after{content:" ▾"}',
  '.who>summary:hover{border-color:var(--muted)}',
  '.who-list{display:grid;grid-template-columns:repeat(auto-fill,minmax(9rem,1fr));gap:2px 16px;margin:8px 0 0;padding:0;list-style:none}',
  '.who-list li{min-width:0;overflow:hidden;text-overflow:ellipsis;white-space:nowrap}',
  '.who-note{margin:6px 0 0;color:var(--muted)}',
].join('');

/** The widget's rules for the list (added to EMBED_CSS). */
export const PLAYERS_EMBED_CSS = [
  '.who{margin:6px 0 0;font-size:12px}',
  '.who>summary{cursor:pointer;color:var(--muted);font-weight:600}',
  '.who>summary:focus-visible{outline:2px solid var(--link);outline-offset:2px;border-radius:4px}',
  '.who-list{margin:4px 0 0;padding:0;list-style:none;columns:2 8rem;column-gap:12px;max-height:160px;overflow:auto}',
  '.who-list li{overflow:hidden;text-overflow:ellipsis;white-space:nowrap}',
  '.who-note{margin:4px 0 0;color:var(--muted)}',
].join('');
