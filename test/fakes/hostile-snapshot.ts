// A status page snapshot whose every piece of user text is an attack or a formatting trap, for the renderers' escaping
// (one of SNAPSHOT_FIXTURES in snapshots.ts).
import type { Snapshot, SnapshotComponent } from '../../src/domain/snapshot.js';
import { chartsOf, withDayIncidents } from './snapshot-charts.js';
import {
  component,
  DAY,
  dayBars,
  emptyLive,
  FIXTURE_NOW,
  incident,
  MINUTE,
  maintenanceWindow,
  minecraftLive,
  snapshotOf,
} from './snapshot-parts.js';

/**
 * Every piece of user text is an attack or a formatting trap: HTML, script, quotes, `]]>`, Markdown, entities, control
 * characters, a lone surrogate, huge words; in components, an active and a resolved incident, and a maintenance window.
 */
export function hostileSnapshot(): Snapshot {
  const xss = '<img src=x onerror=alert(1)>';
  const components: SnapshotComponent[] = [
    component({
      id: 'cmp_xss"><script>alert(2)</script>',
      name: xss,
      group: '</h3><script>alert(3)</script>',
      description: '"><svg onload=alert(4)>',
      live: {
        ...minecraftLive(
          1,
          10,
          30,
          '1.21"><b>x</b>',
          '§aWelcome\r\n<script>alert(5)</script>\n# not a heading\n- not a list\n\u0000\u0008\u000b\u001f',
        ),
        // Who is online, on a page that shows names: each name an attack of its own.
        playerNames: [
          '<script>alert(15)</script>',
          '"><img src=x onerror=alert(16)>',
          '**md** [x](javascript:alert(17))',
        ],
      },
      // The day details carry incident titles too (the bars' titles, the popover).
      days: withDayIncidents(dayBars(FIXTURE_NOW, { seed: 36 }), [
        { daysAgo: 0, id: 'inc_xss', title: 'Bob\'s "Best" <Server> & Co — </title><script>alert(6)</script>' },
        { daysAgo: 2, id: 'inc_day"><script>alert(13)</script>', title: '</span><span onmouseover=alert(14)>\n"x"' },
      ]),
      charts: chartsOf(3, { latencyMs: 30, players: { peak: 10 } }),
    }),
    component({
      id: 'cmp_md',
      name: '*bold* | pipe',
      group: '`code` [link](javascript:alert(1))',
      description: '_under_ ~strike~ <b>html</b>',
    }),
    component({
      id: 'cmp_long',
      name: 'A'.repeat(300),
      group: '`code` [link](javascript:alert(1))',
      state: 'down',
      since: FIXTURE_NOW - 3 * MINUTE,
      live: { ...emptyLive(), message: 'https://example.com/'.repeat(20) },
    }),
  ];
  const active = incident({
    id: 'inc_xss',
    title: 'Bob\'s "Best" <Server> & Co — </title><script>alert(6)</script>',
    impact: 'major',
    startedAt: FIXTURE_NOW - 10 * MINUTE,
    components: [{ id: 'cmp_xss', name: xss }],
    updates: [
      {
        id: 'u1',
        status: 'investigating',
        message: '</p></li></ol><script>alert(7)</script>\n1. one\n> quote\n---',
        at: FIXTURE_NOW - 10 * MINUTE,
      },
      {
        id: 'u2',
        status: 'identified',
        message:
          '[click](javascript:alert(8)) ![img](x) <!-- comment\n]]><![CDATA[<script>alert(9)</script>]]> &#60;b&#62; &lt;i&gt;\n' +
          '\u0000\u0007\u001b[31mred\u001b[0m\u007f \ud800 lone\u2028separated',
        at: FIXTURE_NOW - 2 * MINUTE,
      },
    ],
  });
  const resolved = incident({
    id: 'inc_phish',
    title: '[Log in here](https://phish.example) <a href="javascript:alert(10)">x</a>',
    status: 'resolved',
    impact: 'critical',
    startedAt: FIXTURE_NOW - 2 * DAY,
    resolvedAt: FIXTURE_NOW - 2 * DAY + 40 * MINUTE,
    components: [{ id: 'cmp_long', name: '<iframe src=//evil.example>' }],
    updates: [
      {
        id: 'u3',
        status: 'resolved',
        message: '<div onclick="alert(11)">\n* star\n+ plus\n```\n===',
        at: FIXTURE_NOW - 2 * DAY + 40 * MINUTE,
      },
    ],
  });
  const backup = maintenanceWindow({
    id: 'mnt_xss',
    title: '</h3><script>alert(12)</script> "Backup" ]]>',
    components: [{ id: 'cmp_md', name: '*bold* | pipe' }],
    description: '<b>bold</b> & &amp;\n# not a heading\n| a | b |\n\u0007bell',
    startsAt: FIXTURE_NOW - 30 * MINUTE,
    endsAt: FIXTURE_NOW + 30 * MINUTE,
    status: 'in_progress',
    repeats: 'RRULE <img src=x onerror=alert(13)> *x* [y](javascript:alert(13)) | z',
  });
  return snapshotOf(components, {
    title: 'Bob\'s "Best" <Server> & Co',
    description: '"quoted" \'single\' <b>bold</b> & `code` </textarea>',
    activeIncidents: [active],
    recentIncidents: [resolved],
    maintenance: { active: [backup], upcoming: [] },
  });
}
