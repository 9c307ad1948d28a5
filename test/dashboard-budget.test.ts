// The dashboard's initial JavaScript stays within issue 16's budget (250 KB gzipped), measured on the build `npm test` makes.
import { describe, expect, it } from 'vitest';
import { INITIAL_JS_BUDGET_BYTES, initialJavaScript } from '../bench/dashboard-size.js';

describe('the dashboard build', () => {
  it('loads at most 250 KB of gzipped JavaScript before the first screen (screens come as their own chunks)', () => {
    const { files, gzipBytes } = initialJavaScript();
    expect(files.length).toBeGreaterThan(0);
    expect(files.map((f) => f.file).join(' ')).not.toMatch(/monitors-|login-|uPlot/i);
    expect(gzipBytes).toBeLessThanOrEqual(INITIAL_JS_BUDGET_BYTES);
  });
});
