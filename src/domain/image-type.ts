// Recognises an uploaded image by its bytes (never by the type a client declares): PNG, JPEG, WebP, GIF, ICO and SVG.
import type { PageAssetName, PageAssetType } from './branding.js';

/** The types each upload accepts: an ICO only makes sense as a favicon. */
export const ACCEPTED_TYPES: Record<PageAssetName, readonly PageAssetType[]> = {
  logo: ['image/png', 'image/jpeg', 'image/webp', 'image/gif', 'image/svg+xml'],
  favicon: ['image/png', 'image/jpeg', 'image/webp', 'image/gif', 'image/svg+xml', 'image/x-icon'],
};

/** The names people know the accepted types by, for error messages. */
export const TYPE_NAMES: Record<PageAssetType, string> = {
  'image/png': 'PNG',
  'image/jpeg': 'JPEG',
  'image/webp': 'WebP',
  'image/gif': 'GIF',
  'image/svg+xml': 'SVG',
  'image/x-icon': 'ICO',
};

/** The image type of these bytes, or undefined when they are none of the types Warden stores. */
export function imageTypeOf(bytes: Uint8Array): PageAssetType | undefined {
  const starts = (...sig: number[]) => sig.every((b, i) => bytes[i] === b);
  if (starts(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return 'image/png';
  if (starts(0xff, 0xd8, 0xff)) return 'image/jpeg';
  if (starts(0x47, 0x49, 0x46, 0x38) && (bytes[4] === 0x37 || bytes[4] === 0x39) && bytes[5] === 0x61)
    return 'image/gif';
  if (starts(0x52, 0x49, 0x46, 0x46) && ascii(bytes, 8, 12) === 'WEBP') return 'image/webp';
  // ICONDIR: reserved 0, type 1 (icon), at least one image.
  if (starts(0x00, 0x00, 0x01, 0x00) && bytes.length >= 6 && (bytes[4] !== 0 || bytes[5] !== 0)) return 'image/x-icon';
  if (isSvg(bytes)) return 'image/svg+xml';
  return undefined;
}

/**
 * An SVG document: UTF-8 text whose first element is <svg> (after an optional BOM, XML declaration, comments and
 * doctype). Browsers run no script in an image loaded by <img> or as an icon; served on its own, its headers sandbox
 * it (see the asset route).
 */
function isSvg(bytes: Uint8Array): boolean {
  const head = Buffer.from(bytes.subarray(0, 4096))
    .toString('utf8')
    .replace(/^\uFEFF/, '');
  const rest = head.replace(/^(?:\s+|<\?xml[\s\S]*?\?>|<!--[\s\S]*?-->|<!DOCTYPE[^>[]*(?:\[[\s\S]*?\])?\s*>)*/i, '');
  return /^<svg[\s>]/.test(rest);
}

function ascii(bytes: Uint8Array, from: number, to: number): string {
  return String.fromCharCode(...bytes.subarray(from, to));
}
