import { describe, expect, it } from 'vitest';
import { pickContentCoding } from './accept-encoding.js';

const BOTH = { br: true, gzip: true };

describe('picking a content coding from Accept-Encoding', () => {
  it('sends the plain bytes when the client sends no Accept-Encoding, or an empty one', () => {
    expect(pickContentCoding(undefined, BOTH)).toBe('identity');
    expect(pickContentCoding('', BOTH)).toBe('identity');
  });

  it('prefers Brotli when both are equally welcome, as browsers send them', () => {
    expect(pickContentCoding('gzip, deflate, br, zstd', BOTH)).toBe('br');
    expect(pickContentCoding('br;q=1.0, gzip;q=1.0', BOTH)).toBe('br');
    expect(pickContentCoding('gzip, deflate', BOTH)).toBe('gzip');
  });

  it('follows q-values, whatever the order', () => {
    expect(pickContentCoding('br;q=0.5, gzip;q=0.8', BOTH)).toBe('gzip');
    expect(pickContentCoding('gzip;q=0.2, br;q=0.3', BOTH)).toBe('br');
    expect(pickContentCoding('GZIP;Q=0.9, BR;Q=0.1', BOTH)).toBe('gzip');
    expect(pickContentCoding('br ; q = 0.7 , gzip ; q=0.6', BOTH)).toBe('br');
  });

  it('never picks a coding refused with q=0', () => {
    expect(pickContentCoding('br;q=0, gzip', BOTH)).toBe('gzip');
    expect(pickContentCoding('br;q=0, gzip;q=0', BOTH)).toBe('identity');
    expect(pickContentCoding('br;q=0.000', BOTH)).toBe('identity');
  });

  it('keeps the plain bytes when the client prefers them, and drops them with identity;q=0', () => {
    expect(pickContentCoding('identity, gzip;q=0.5', BOTH)).toBe('identity');
    expect(pickContentCoding('identity;q=0.5, gzip;q=0.5', BOTH)).toBe('gzip');
    expect(pickContentCoding('identity;q=0, gzip;q=0.1', BOTH)).toBe('gzip');
    // A coding named at any weight beats identity left unnamed.
    expect(pickContentCoding('gzip;q=0.1', BOTH)).toBe('gzip');
  });

  it('reads * as every coding not named', () => {
    expect(pickContentCoding('*', BOTH)).toBe('br');
    expect(pickContentCoding('br;q=0, *', BOTH)).toBe('gzip');
    expect(pickContentCoding('*;q=0', BOTH)).toBe('identity');
    expect(pickContentCoding('*;q=0, gzip', BOTH)).toBe('gzip');
    expect(pickContentCoding('identity, *;q=0.5', BOTH)).toBe('identity');
  });

  it('sends the plain bytes when nothing it holds is acceptable, rather than a 406', () => {
    expect(pickContentCoding('zstd, deflate', BOTH)).toBe('identity');
    expect(pickContentCoding('zstd, identity;q=0', BOTH)).toBe('identity');
  });

  it('only picks a variant the body has', () => {
    expect(pickContentCoding('br', { br: false, gzip: true })).toBe('identity');
    expect(pickContentCoding('br, gzip', { br: false, gzip: true })).toBe('gzip');
    expect(pickContentCoding('br, gzip', { br: false, gzip: false })).toBe('identity');
  });

  it('treats a weight it cannot read as a refusal', () => {
    expect(pickContentCoding('br;q=abc, gzip;q=2', BOTH)).toBe('identity');
    expect(pickContentCoding('br;q=0.5;level=9', BOTH)).toBe('br');
  });
});
