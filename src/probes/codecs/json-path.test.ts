// JSON paths as monitors write them, and the text values are compared as.
import { describe, expect, it } from 'vitest';
import { isValidJsonPath, jsonValueText, parseJsonPath, readJsonPath } from './json-path.js';

const document = {
  status: 'ok',
  a: { b: [{ c: 42 }, { c: null }] },
  'odd.key': { 'with space': true },
  list: ['x', 'y'],
};

describe('parseJsonPath', () => {
  it('reads "$." paths and bare paths alike', () => {
    expect(parseJsonPath('$.a.b[0].c')).toEqual(['a', 'b', 0, 'c']);
    expect(parseJsonPath('a.b[0].c')).toEqual(['a', 'b', 0, 'c']);
    expect(parseJsonPath('$')).toEqual([]);
    expect(parseJsonPath('[1]')).toEqual([1]);
  });

  it('reads quoted keys holding dots or spaces', () => {
    expect(parseJsonPath(`$['odd.key']["with space"]`)).toEqual(['odd.key', 'with space']);
  });

  it('rejects malformed paths', () => {
    for (const bad of ['a..b', 'a.', 'a[x]', 'a[0', '$.a]b', 'a b[', '.'.repeat(3)])
      expect(isValidJsonPath(bad), bad).toBe(false);
    expect(isValidJsonPath(Array.from({ length: 65 }, () => 'a').join('.'))).toBe(false);
  });
});

describe('readJsonPath', () => {
  it('finds nested values, including null and falsy ones', () => {
    expect(readJsonPath(document, '$.a.b[0].c')).toEqual({ found: true, value: 42 });
    expect(readJsonPath(document, 'a.b[1].c')).toEqual({ found: true, value: null });
    expect(readJsonPath(document, `$['odd.key']['with space']`)).toEqual({ found: true, value: true });
    expect(readJsonPath(document, 'list.1')).toEqual({ found: true, value: 'y' });
    expect(readJsonPath(document, '$')).toEqual({ found: true, value: document });
  });

  it('says when nothing is there', () => {
    expect(readJsonPath(document, 'a.b[5].c')).toEqual({ found: false });
    expect(readJsonPath(document, 'status.length')).toEqual({ found: false });
    expect(readJsonPath(document, 'missing')).toEqual({ found: false });
    expect(readJsonPath(document, 'a..b')).toEqual({ found: false });
  });

  it('never walks into the prototype', () => {
    expect(readJsonPath(document, '__proto__')).toEqual({ found: false });
    expect(readJsonPath(document, 'a.constructor')).toEqual({ found: false });
    expect(readJsonPath(document, 'list.length')).toEqual({ found: false });
  });
});

describe('jsonValueText', () => {
  it('keeps strings and writes other values as JSON', () => {
    expect(jsonValueText('up')).toBe('up');
    expect(jsonValueText(42)).toBe('42');
    expect(jsonValueText(true)).toBe('true');
    expect(jsonValueText(null)).toBe('null');
    expect(jsonValueText({ a: [1] })).toBe('{"a":[1]}');
  });
});
