// The rules of the join row (html-join.ts), on their own so the stylesheet can take them without importing markup.

/** The page's rules for the join row (appended to PAGE_CSS and, with the embed's colours, to EMBED_CSS). */
export const JOIN_CSS = [
  '.join{display:flex;flex-wrap:wrap;align-items:center;gap:6px 10px;margin:8px 0 0;font-size:.875rem}',
  '.join-go{display:inline-flex;align-items:center;min-height:32px;padding:4px 12px;font:inherit;font-weight:600;border:1px solid var(--link);border-radius:8px;background:var(--surface);color:var(--link);text-decoration:none;cursor:pointer}',
  '.join-go:hover{background:var(--maint-bg,transparent)}',
  '.join-address{padding:2px 6px;border-radius:6px;background:var(--bg,transparent);border:1px solid var(--divider,var(--border));user-select:all;-webkit-user-select:all;overflow-wrap:anywhere}',
  '.join-note{color:var(--muted)}.join-note.ok{color:var(--ok);font-weight:600}',
  '.join-badges{display:flex;flex-wrap:wrap;gap:4px;margin:0;padding:0;list-style:none}',
  '.jb{padding:0 8px;border-radius:999px;font-size:.75rem;font-weight:600;line-height:1.7;border:1px solid var(--border);color:var(--text);background:var(--unknown-bg,transparent)}',
  '.jb-full,.jb-queue{border-color:var(--warn);background:var(--warn-bg,transparent)}',
].join('');
