// Which SQLite errors pass: the file full, locked by another process past the busy timeout, or unreadable.
import type { StorageFault } from '../../../domain/errors.js';

/**
 * SQLITE_FULL: the disk is full or the database reached its size limit (max_page_count); a commit it fails is rolled
 * back whole. SQLITE_BUSY and SQLITE_LOCKED: another process holds the file's write lock past `busy_timeout`.
 * SQLITE_IOERR, SQLITE_CANTOPEN, SQLITE_READONLY: the file cannot be read or written now (its disk failing, unmounted,
 * or remounted read-only). Extended codes (SQLITE_IOERR_WRITE) count as their primary.
 */
export function sqliteFault(error: unknown): StorageFault | null {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== 'string') return null;
  switch (code.split('_', 2).join('_')) {
    case 'SQLITE_FULL':
      return 'full';
    case 'SQLITE_BUSY':
    case 'SQLITE_LOCKED':
      return 'busy';
    case 'SQLITE_IOERR':
    case 'SQLITE_CANTOPEN':
    case 'SQLITE_READONLY':
      return 'unreachable';
    default:
      return null;
  }
}
