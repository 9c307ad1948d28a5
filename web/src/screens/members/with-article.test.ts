import { describe, expect, it } from 'vitest';
import { withArticle } from './with-article';

describe('withArticle', () => {
  it('reads "an" before a vowel and "a" before a consonant', () => {
    expect(withArticle('editor')).toBe('an editor');
    expect(withArticle('admin')).toBe('an admin');
    expect(withArticle('owner')).toBe('an owner');
    expect(withArticle('viewer')).toBe('a viewer');
  });
});
