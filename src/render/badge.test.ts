// The badge: valid SVG (parsed and drawn by resvg), the right words, the state's colour, players, label and style options.
import { Resvg } from '@resvg/resvg-js';
import { describe, expect, it } from 'vitest';
import {
  hostileSnapshot,
  largeSnapshot,
  operationalSnapshot,
  partialOutageSnapshot,
  snapshotOf,
} from '../../test/fakes/snapshots.js';
import { readPng, rgbAt } from '../../test/pixels.js';
import type { PageState, Snapshot } from '../domain/snapshot.js';
import { BADGE_MESSAGE, badgeOptions, renderBadge } from './badge.js';
import { STATE_COLOUR } from './html-layout.js';

const options = (query: string) => badgeOptions(new URLSearchParams(query));

/** Draws the SVG (which fails on malformed XML) and returns the colour at (x, y) of the 20 px high badge. */
function pixel(svg: string, x: number, y = 10): [number, number, number] {
  return rgbAt(readPng(new Resvg(svg, { font: { loadSystemFonts: false } }).render().asPng()), x, y);
}

function hex(colour: string): [number, number, number] {
  return [1, 3, 5].map((i) => Number.parseInt(colour.slice(i, i + 2), 16)) as [number, number, number];
}

const withState = (state: PageState, label: string): Snapshot => ({
  ...operationalSnapshot(),
  overall: { state, label },
});

describe('renderBadge', () => {
  it.each(Object.keys(BADGE_MESSAGE) as PageState[])('shows %s in words and in its colour', (state) => {
    const { contentType, body } = renderBadge(withState(state, 'x'), {});
    expect(contentType).toBe('image/svg+xml; charset=utf-8');
    expect(body.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
    expect(body.endsWith('</svg>')).toBe(true);
    expect(body).toContain(`<title>Blockhaven Network: ${BADGE_MESSAGE[state]}</title>`);
    expect(body).toContain(`fill="${STATE_COLOUR[state]}"`);
    // The message half, drawn: the state's colour under the shields gloss (a 10% overlay).
    const width = Number(/width="(\d+)"/.exec(body)![1]);
    const drawn = pixel(body, width - 3, 3);
    hex(STATE_COLOUR[state]).forEach((channel, i) => {
      expect(Math.abs(drawn[i]! - channel)).toBeLessThan(20);
    });
  });

  it('shows players online with ?players, and the state when the page reports no players', () => {
    expect(renderBadge(operationalSnapshot(), options('players')).body).toContain(
      '<title>Blockhaven Network: 150/800 online</title>',
    );
    expect(renderBadge(largeSnapshot(), options('players=')).body).toContain('3,158/7,800 online');
    const uncapped = snapshotOf([], {});
    uncapped.totals = { players: 7, maxPlayers: null };
    expect(renderBadge(uncapped, options('players')).body).toContain(': 7 online</title>');
    const none = snapshotOf([], {});
    expect(renderBadge(none, options('players')).body).toContain(`: ${BADGE_MESSAGE[none.overall.state]}</title>`);
    expect(renderBadge(partialOutageSnapshot(), options('players=false')).body).toContain(': degraded</title>');
  });

  it('takes the label from ?label=, cleaned and cut', () => {
    expect(renderBadge(operationalSnapshot(), options('label=Survival')).body).toContain(
      '<title>Survival: operational</title>',
    );
    expect(options('label=' + 'x'.repeat(200)).label).toHaveLength(64);
    expect(options('label=%C2%A7aGreen%0Aline').label).toBe('Green line');
    expect(renderBadge(operationalSnapshot(), options('label=')).body).toContain('<title>operational</title>');
  });

  it('takes the shields styles and ignores anything else', () => {
    expect(options('style=for-the-badge')).toEqual({ style: 'for-the-badge' });
    expect(options('style=<script>&other=1')).toEqual({});
    const tall = renderBadge(operationalSnapshot(), options('style=for-the-badge')).body;
    expect(tall).toContain('height="28"');
    expect(tall).toContain('OPERATIONAL');
  });

  it('escapes hostile titles and labels into valid SVG', () => {
    const hostile = renderBadge(hostileSnapshot(), options('label=<b>"x"</b>&amp;')).body;
    expect(hostile).not.toContain('<b>');
    pixel(hostile, 1);
    pixel(renderBadge(hostileSnapshot(), {}).body, 1);
  });
});
