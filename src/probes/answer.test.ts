// How the database and broker types compare an answer with `expected`, and how they show it.
import { describe, expect, it } from 'vitest';
import { ANSWER_LIMITS, answerText, compileExpected, judgeAnswer } from './answer.js';

describe('expected', () => {
  it('is a text the answer equals, blanks around either aside', () => {
    const matcher = compileExpected(' ready ');
    if ('error' in matcher) throw new Error(matcher.error);
    expect([matcher.test('ready'), matcher.test('ready\n'), matcher.test('already'), matcher.test('Ready')]).toEqual([
      true,
      true,
      false,
      false,
    ]);
  });

  it('is a /regular expression/ with flags imsu, and says what is wrong with a bad one', () => {
    const matcher = compileExpected('/^up|ok$/i');
    if ('error' in matcher) throw new Error(matcher.error);
    expect([matcher.test('OK'), matcher.test('down')]).toEqual([true, false]);
    expect(compileExpected('/x/g')).toEqual({ error: 'invalid expected pattern: flags "g" (use any of i, m, s, u)' });
    expect(compileExpected('/(/')).toMatchObject({ error: expect.stringMatching(/^invalid expected pattern: /) });
  });

  it('stops a catastrophic pattern and says so', () => {
    const result = judgeAnswer('/^(a+)+$/', { latencyMs: 1, asked: 'Q', answer: `${'a'.repeat(40)}!` });
    expect(result).toMatchObject({ ok: false, error: 'the expected pattern took too long to run on the answer' });
  });
});

describe('an answer', () => {
  it('is text: null, numbers, bytes as hex, dates in ISO 8601, objects as JSON, cut to the limit', () => {
    expect([answerText(null), answerText(undefined), answerText(42), answerText(10n), answerText(true)]).toEqual([
      'null',
      'null',
      '42',
      '10',
      'true',
    ]);
    expect(answerText(Buffer.from([0xde, 0xad]))).toBe('dead');
    expect(answerText(new Date('2026-11-29T03:00:00Z'))).toBe('2026-11-29T03:00:00.000Z');
    expect(answerText({ n: 1n, list: [1, 'a'] })).toBe('{"n":"1","list":[1,"a"]}');
    const long = answerText('x'.repeat(5000));
    expect(long.length).toBe(ANSWER_LIMITS.chars);
    expect(long.endsWith('…')).toBe(true);
  });

  it('is up with what was asked and answered, or down showing both', () => {
    expect(judgeAnswer(undefined, { latencyMs: 3, asked: 'SELECT 1', answer: '1' })).toEqual({
      ok: true,
      latencyMs: 3,
      message: 'SELECT 1 → 1',
      data: { answer: '1' },
    });
    expect(judgeAnswer('2', { latencyMs: 3, asked: 'SELECT 1', answer: '1', data: { rows: 1 } })).toEqual({
      ok: false,
      error: 'expected "2", got "1"',
      data: { rows: 1, answer: '1' },
    });
    expect(judgeAnswer('/\\d/', { latencyMs: 3, asked: 'GET k', answer: '' })).toMatchObject({
      ok: false,
      error: 'expected something matching /\\d/, got (nothing)',
    });
  });
});
