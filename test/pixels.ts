// Images read back as pixels (fast-png), so a test of a rendered image or a screenshot asserts what a person would see.
import { type DecodedPng, decode, hasPngSignature } from 'fast-png';

export type Pixels = DecodedPng;

/** A rectangle of an image, in its pixels. */
export interface Region {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** The eight bytes every PNG file starts with. */
export const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a] as const;

/** A mean luminance below this reads as dark: a status page in its dark theme measures about 0.03 (its background 0.006). */
export const DARK_LUMINANCE_MAX = 0.2;
/** A mean luminance above this reads as light: a status page in its light theme measures about 0.9 (its background 0.93). */
export const LIGHT_LUMINANCE_MIN = 0.6;

/** Decodes a PNG; throws on anything else, and on the palette or 16-bit images that neither Chromium nor resvg writes. */
export function readPng(bytes: Uint8Array): Pixels {
  if (!hasPngSignature(bytes)) throw new Error('not a PNG: the signature is missing');
  const png = decode(bytes);
  if (png.depth !== 8 || png.palette)
    throw new Error(`expected an 8-bit true-colour PNG, got depth ${png.depth}${png.palette ? ' with a palette' : ''}`);
  return png;
}

/** The red, green and blue (0–255) of one pixel; a grey image gives the same value thrice. */
export function rgbAt(png: Pixels, x: number, y: number): [number, number, number] {
  const at = (y * png.width + x) * png.channels;
  const grey = png.channels < 3;
  return [png.data[at]!, png.data[at + (grey ? 0 : 1)]!, png.data[at + (grey ? 0 : 2)]!];
}

/** One pixel as `#rrggbb`, to compare with the colours the renderers use. */
export function hexAt(png: Pixels, x: number, y: number): string {
  return (
    '#' +
    rgbAt(png, x, y)
      .map((channel) => channel.toString(16).padStart(2, '0'))
      .join('')
  );
}

/** How many distinct colours a grid sample (every `step` px) of a region holds: a blank or failed image has one or two. */
export function distinctColours(png: Pixels, region: Region = whole(png), step = 7): number {
  const seen = new Set<string>();
  for (const [x, y] of grid(png, region, step)) seen.add(hexAt(png, x, y));
  return seen.size;
}

/** The mean relative luminance (WCAG: 0 black, 1 white) of a grid sample of a region. */
export function meanLuminance(png: Pixels, region: Region = whole(png), step = 3): number {
  let sum = 0;
  let count = 0;
  for (const [x, y] of grid(png, region, step)) {
    const [r, g, b] = rgbAt(png, x, y).map(linear) as [number, number, number];
    sum += 0.2126 * r + 0.7152 * g + 0.0722 * b;
    count++;
  }
  return count === 0 ? Number.NaN : sum / count;
}

/** How many pixels of a region are within `tolerance` (on each channel, 0–255) of a `#rrggbb` colour. */
export function countNear(png: Pixels, colour: string, tolerance: number, region: Region = whole(png)): number {
  const target = [1, 3, 5].map((i) => Number.parseInt(colour.slice(i, i + 2), 16));
  let count = 0;
  for (const [x, y] of grid(png, region, 1)) {
    if (rgbAt(png, x, y).every((channel, i) => Math.abs(channel - target[i]!) <= tolerance)) count++;
  }
  return count;
}

function whole(png: Pixels): Region {
  return { x: 0, y: 0, width: png.width, height: png.height };
}

/** The points of a region every `step` px, as whole pixels inside both the region and the image. */
function* grid(png: Pixels, region: Region, step: number): Generator<[number, number]> {
  const left = Math.max(0, Math.ceil(region.x));
  const top = Math.max(0, Math.ceil(region.y));
  const right = Math.min(png.width, Math.floor(region.x + region.width));
  const bottom = Math.min(png.height, Math.floor(region.y + region.height));
  for (let y = top; y < bottom; y += step) for (let x = left; x < right; x += step) yield [x, y];
}

/** An sRGB channel (0–255) as linear light (0–1), as WCAG's relative luminance wants it. */
function linear(channel: number): number {
  const c = channel / 255;
  return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
}
