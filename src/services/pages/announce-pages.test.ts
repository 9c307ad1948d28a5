// The start-up log names every status page: its URL, its verified custom domain, at most 20 lines and a count of the rest.
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../logger.js';
import { ANNOUNCED_PAGES_MAX, type AnnouncedPage, announcePages } from './announce-pages.js';

const page = (slug: string, title: string, extra: Partial<AnnouncedPage> = {}): AnnouncedPage => ({
  slug,
  title,
  customDomain: null,
  customDomainVerifiedAt: null,
  passwordHash: null,
  ...extra,
});

/** What the logger wrote, one parsed JSON line per entry. */
function logged(pages: AnnouncedPage[]): { msg: string; url?: string; customDomain?: string; level: number }[] {
  const lines: string[] = [];
  announcePages(
    createLogger('info', { write: (line: string) => void lines.push(line) }),
    pages,
    'https://warden.example.com',
  );
  return lines.map((line) => JSON.parse(line));
}

describe('announcePages', () => {
  it("logs each page's URL by title, with its custom domain once verified, and says which are password-protected", () => {
    const entries = logged([
      page('survival', 'Survival'),
      page('creative', 'Creative', { customDomain: 'status.creative.test', customDomainVerifiedAt: 1 }),
      page('pending', 'Pending', { customDomain: 'status.pending.test' }),
      page('staff', 'Staff', { passwordHash: 'scrypt$…' }),
    ]);
    expect(entries.map((e) => e.msg)).toEqual([
      'status page "Creative": https://warden.example.com/s/creative and https://status.creative.test/',
      'status page "Pending": https://warden.example.com/s/pending',
      'status page "Staff": https://warden.example.com/s/staff (password-protected)',
      'status page "Survival": https://warden.example.com/s/survival',
    ]);
    expect(entries[0]).toMatchObject({
      level: 30,
      url: 'https://warden.example.com/s/creative',
      customDomain: 'https://status.creative.test/',
    });
    // Nothing about the password but that there is one.
    expect(JSON.stringify(entries)).not.toContain('scrypt');
  });

  it(`stops after ${ANNOUNCED_PAGES_MAX} pages and says how many more`, () => {
    const pages = Array.from({ length: 23 }, (_, i) =>
      page(`p${String(i).padStart(2, '0')}`, `Page ${String(i).padStart(2, '0')}`),
    );
    const entries = logged(pages);
    expect(entries).toHaveLength(ANNOUNCED_PAGES_MAX + 1);
    expect(entries[ANNOUNCED_PAGES_MAX - 1]!.msg).toBe('status page "Page 19": https://warden.example.com/s/p19');
    expect(entries[ANNOUNCED_PAGES_MAX]!.msg).toBe(
      'and 3 more status pages (listed in the dashboard at https://warden.example.com/app/)',
    );
    expect(logged(pages.slice(0, 21)).at(-1)!.msg).toBe(
      'and 1 more status page (listed in the dashboard at https://warden.example.com/app/)',
    );
  });

  it('logs nothing without pages', () => {
    expect(logged([])).toEqual([]);
  });
});
