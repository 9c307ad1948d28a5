// `npm run bench dashboard`: the dashboard's budgets (issue 16), one measure each, every one printed against its target:
// the initial JavaScript from the build, then in Chromium against a served Warden with 10,000 monitors the first paint
// of /app, the monitor list interactive, and a search answered (dashboard-browser.ts).
import {
  DASHBOARD_MONITORS,
  measureFiltering,
  measureFirstPaint,
  measureListInteractive,
  median,
  type ServedDashboard,
  serveDashboard,
} from './dashboard-browser.js';
import { INITIAL_JS_BUDGET_BYTES, initialJavaScript } from './dashboard-size.js';
import type { Benchmark } from './run.js';

/** One budget of the dashboard: what it measures, the result's lines, and whether it is met. Add a measure to extend. */
interface Measure {
  name: string;
  run(served: () => Promise<ServedDashboard>): Promise<{ lines: string[]; met: boolean }>;
}

const kb = (bytes: number) => `${(bytes / 1000).toFixed(1)} KB`;
const ms = (value: number) => `${Math.round(value)} ms`;
const list = (values: readonly number[]) => values.map((v) => Math.round(v)).join(', ');

/** Issue 16's budgets in the browser. */
const FIRST_PAINT_BUDGET_MS = 1000;
const INTERACTIVE_BUDGET_MS = 1500;
const FILTER_BUDGET_MS = 100;
/** The Monitors screen's search box waits this long after the last key before asking (screens/monitors.tsx). */
const SEARCH_DEBOUNCE_MS = 250;
const SEARCHES = [
  'Lobby 12',
  'Lobby 345',
  'Lobby 7',
  'Lobby 99',
  'Lobby 5001',
  'lobby-42',
  'Lobby 808',
  'Lobby 3',
  'lobby-9999',
  'Lobby 61',
];

const MEASURES: Measure[] = [
  {
    name: `initial JavaScript, gzipped (budget ${kb(INITIAL_JS_BUDGET_BYTES)})`,
    async run() {
      const { files, gzipBytes } = initialJavaScript();
      return {
        lines: [
          ...files.map((f) => `  ${f.file}: ${kb(f.gzipBytes)}`),
          `  total: ${kb(gzipBytes)} = ${((gzipBytes / INITIAL_JS_BUDGET_BYTES) * 100).toFixed(0)}% of the budget`,
        ],
        met: gzipBytes <= INITIAL_JS_BUDGET_BYTES,
      };
    },
  },
  {
    name: `first paint of /app, signed in, a first visit (median of 5; budget < ${ms(FIRST_PAINT_BUDGET_MS)} for the screen itself)`,
    async run(served) {
      const { app, screen, baseline } = await measureFirstPaint(await served(), 5);
      return {
        lines: [
          `  /app first contentful paint (index.html's "Loading Warden…"): ${ms(median(app))} (runs: ${list(app)})`,
          `  /app's screen drawn (the Monitors heading, after sign-in check and the screen's code): ${ms(median(screen))} (runs: ${list(screen)})`,
          `  baseline, a static index.html from bare node:http: ${ms(median(baseline))} (runs: ${list(baseline)})`,
        ],
        met: median(screen) < FIRST_PAINT_BUDGET_MS,
      };
    },
  },
  {
    name: `monitor list interactive, ${DASHBOARD_MONITORS} monitors (median of 5; budget < ${ms(INTERACTIVE_BUDGET_MS)} from navigation start)`,
    async run(served) {
      const { rows, interactive } = await measureListInteractive(await served(), 5);
      return {
        lines: [
          `  first rows and the search box drawn: ${ms(median(rows))} (runs: ${list(rows)})`,
          `  the search box answering a key: ${ms(median(interactive))} (runs: ${list(interactive)})`,
        ],
        met: median(interactive) < INTERACTIVE_BUDGET_MS,
      };
    },
  },
  {
    name: `filtering: a search answered in the list (median of 10; budget < ${ms(FILTER_BUDGET_MS)} after the search is sent)`,
    async run(served) {
      const { toDom, api, requestToDom } = await measureFiltering(await served(), SEARCHES);
      return {
        lines: [
          `  request sent → rows updated: ${ms(median(requestToDom))} (runs: ${list(requestToDom)})`,
          `  of which the API's answer (GET /api/v1/monitors?q=…&limit=200): ${ms(median(api))} (runs: ${list(api)})`,
          `  typing → rows updated: ${ms(median(toDom))}, of which ${SEARCH_DEBOUNCE_MS} ms is the search box waiting for typing to pause`,
        ],
        met: median(requestToDom) < FILTER_BUDGET_MS,
      };
    },
  },
];

export const benchmark: Benchmark = {
  name: 'dashboard',
  description: `the dashboard’s budgets: initial JavaScript (gzipped, from dist/web), and in Chromium with ${DASHBOARD_MONITORS} monitors served: first paint, the monitor list interactive, filtering`,
  async run() {
    let allMet = true;
    let serving: Promise<ServedDashboard> | undefined;
    // Served once, on first need: the size measure needs no server.
    const served = () => (serving ??= serveDashboard());
    try {
      for (const measure of MEASURES) {
        const { lines, met } = await measure.run(served);
        console.log(`${measure.name}: ${met ? 'met' : 'MISSED'}`);
        for (const line of lines) console.log(line);
        allMet &&= met;
      }
    } finally {
      if (serving) await (await serving).close();
    }
    return allMet;
  },
};
