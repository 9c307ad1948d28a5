// Small real images for upload tests: a solid PNG (fast-png), an ICO, and an SVG carrying script that must never run.
import { encode } from 'fast-png';

/** A PNG of one colour (#rrggbb), wide like a logo. */
export function solidPng(hex: string, width = 160, height = 40): Uint8Array {
  const rgb = [1, 3, 5].map((i) => Number.parseInt(hex.slice(i, i + 2), 16));
  const data = new Uint8Array(width * height * 3);
  for (let i = 0; i < width * height; i++) data.set(rgb, i * 3);
  return encode({ width, height, data, channels: 3, depth: 8 });
}

/** An ICO holding one 16×16 PNG (the ICONDIR header, one entry, the PNG). */
export function icoOf(png: Uint8Array = solidPng('#5865f2', 16, 16)): Uint8Array {
  const header = Buffer.alloc(22);
  header.writeUInt16LE(0, 0);
  header.writeUInt16LE(1, 2);
  header.writeUInt16LE(1, 4);
  header.writeUInt8(16, 6);
  header.writeUInt8(16, 7);
  header.writeUInt16LE(1, 10);
  header.writeUInt16LE(32, 12);
  header.writeUInt32LE(png.length, 14);
  header.writeUInt32LE(22, 18);
  return Buffer.concat([header, png]);
}

/** An SVG logo with a script and an event handler in it: shown as an image, neither may ever run. */
export const HOSTILE_SVG = Buffer.from(
  '<?xml version="1.0" encoding="UTF-8"?>\n<!-- a logo -->\n' +
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 40 10" onload="alert(1)"><script>alert(2)</script><rect width="40" height="10" fill="#5865f2"/></svg>',
);
