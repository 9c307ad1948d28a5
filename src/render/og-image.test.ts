// The Open Graph image decoded back to pixels: 1200×630 PNG, not blank, the state's colour, any script, every fixture.
import { decode } from 'fast-png';
import { describe, expect, it } from 'vitest';
import { activeIncidentSnapshot, hostileSnapshot, largeSnapshot, operationalSnapshot, partialOutageSnapshot } from '../../test/fakes/snapshots.js';
import { STATE_COLOUR } from './html-layout.js';
import { OG_HEIGHT, OG_WIDTH, pageUptime30d, prepareOgImage, renderOgImage } from './og-image.js';

function rgbAt(png: ReturnType<typeof decode>, x: number, y: number): string {
  const at = (y * png.width + x) * png.channels;
  return '#' + [0, 1, 2].map((i) => png.data[at + i]!.toString(16).padStart(2, '0')).join('');
}

/** How many distinct colours a sample of the image has: a blank or failed rendering has one or two. */
function colours(png: ReturnType<typeof decode>): number {
  const seen = new Set<string>();
  for (let y = 0; y < png.height; y += 7) for (let x = 0; x < png.width; x += 7) seen.add(rgbAt(png, x, y));
  return seen.size;
}

describe('renderOgImage', () => {
  it('is a 1200×630 PNG with text on it and the overall state across the top', async () => {
    const { contentType, body } = await renderOgImage(partialOutageSnapshot());
    expect(contentType).toBe('image/png');
    expect([...body.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    const png = decode(body);
    expect([png.width, png.height]).toEqual([OG_WIDTH, OG_HEIGHT]);
    expect(colours(png)).toBeGreaterThan(20);
    expect(rgbAt(png, 600, 5)).toBe(STATE_COLOUR.degraded);
    expect(rgbAt(png, 1150, 500)).toBe('#ffffff');
  });

  it('colours the band by state', async () => {
    expect(rgbAt(decode((await renderOgImage(operationalSnapshot())).body), 10, 5)).toBe(STATE_COLOUR.operational);
    const down = largeSnapshot();
    down.overall = { state: 'down', label: 'Major outage' };
    expect(rgbAt(decode((await renderOgImage(down)).body), 10, 5)).toBe(STATE_COLOUR.down);
  });

  it('renders hostile and non-Latin text without failing', async () => {
    const cyrillic = activeIncidentSnapshot();
    cyrillic.page.title = 'Сервер Ромашка — Ελληνικά ąęł';
    for (const snapshot of [hostileSnapshot(), cyrillic]) {
      const png = decode((await renderOgImage(snapshot)).body);
      expect([png.width, png.height]).toEqual([OG_WIDTH, OG_HEIGHT]);
      expect(colours(png)).toBeGreaterThan(20);
    }
  });

  it('gives the same bytes for the same snapshot', async () => {
    const a = await renderOgImage(operationalSnapshot());
    const b = await renderOgImage(operationalSnapshot());
    expect(Buffer.from(a.body).equals(Buffer.from(b.body))).toBe(true);
  });

  it('can be prepared ahead of the first request', async () => {
    await expect(prepareOgImage()).resolves.toBeUndefined();
  });

  it('averages 30-day uptime over the components that have checks', () => {
    const snapshot = operationalSnapshot();
    const shares = snapshot.components.map((c) => c.uptime['30d'] as number);
    expect(pageUptime30d(snapshot.components)).toBeCloseTo(shares.reduce((a, b) => a + b, 0) / shares.length, 10);
    expect(pageUptime30d([])).toBeNull();
  });
});
