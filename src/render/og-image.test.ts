// The Open Graph image decoded back to pixels: 1200×630 PNG, not blank, the state's colour, any script, every fixture.
import { describe, expect, it } from 'vitest';
import {
  activeIncidentSnapshot,
  hostileSnapshot,
  largeSnapshot,
  operationalSnapshot,
  partialOutageSnapshot,
} from '../../test/fakes/snapshots.js';
import { distinctColours, hexAt, PNG_SIGNATURE, readPng } from '../../test/pixels.js';
import { STATE_COLOUR } from './html-layout.js';
import { OG_HEIGHT, OG_WIDTH, pageUptime30d, prepareOgImage, renderOgImage } from './og-image.js';

describe('renderOgImage', () => {
  it('is a 1200×630 PNG with text on it and the overall state across the top', async () => {
    const { contentType, body } = await renderOgImage(partialOutageSnapshot());
    expect(contentType).toBe('image/png');
    expect([...body.subarray(0, 8)]).toEqual(PNG_SIGNATURE);
    const png = readPng(body);
    expect([png.width, png.height]).toEqual([OG_WIDTH, OG_HEIGHT]);
    expect(distinctColours(png)).toBeGreaterThan(20);
    expect(hexAt(png, 600, 5)).toBe(STATE_COLOUR.degraded);
    expect(hexAt(png, 1150, 500)).toBe('#ffffff');
  });

  it('colours the band by state', async () => {
    expect(hexAt(readPng((await renderOgImage(operationalSnapshot())).body), 10, 5)).toBe(STATE_COLOUR.operational);
    const down = largeSnapshot();
    down.overall = { state: 'down', label: 'Major outage' };
    expect(hexAt(readPng((await renderOgImage(down)).body), 10, 5)).toBe(STATE_COLOUR.down);
  });

  it('renders hostile and non-Latin text without failing', async () => {
    const cyrillic = activeIncidentSnapshot();
    cyrillic.page.title = 'Сервер Ромашка — Ελληνικά ąęł';
    for (const snapshot of [hostileSnapshot(), cyrillic]) {
      const png = readPng((await renderOgImage(snapshot)).body);
      expect([png.width, png.height]).toEqual([OG_WIDTH, OG_HEIGHT]);
      expect(distinctColours(png)).toBeGreaterThan(20);
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
