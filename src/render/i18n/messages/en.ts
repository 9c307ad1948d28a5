// English: the reference catalogue. Every other language has exactly these keys (i18n.test.ts checks), as ICU messages
// (https://unicode-org.github.io/icu/userguide/format_parse/messages/): {name} arguments, plural and select.
// Keys are grouped by where they show: state/overall/incident/… (words every form shares), page.* (the HTML page),
// components.*, incidents.*, subscribe.* and notice.* (its parts), md.* (Markdown), feed.* (RSS), og.* (og.png),
// embed.* (the widget), login.* and notFound.* (the password and 404 pages), history.* (the uptime history, in
// history.ts). Messages are plain text: each form escapes them for its format. Numbers given as arguments are
// formatted in the reader's locale.
import { ABBREVIATED_DURATIONS } from './durations.js';
import { GAME_CHANGE_WORDS } from './game-changes.js';
import { HISTORY_WORDS } from './history.js';
import { JOIN_WORDS } from './join.js';
import { LOCATION_WORDS } from './locations.js';

export const en = {
  // The state of a component or page, beside its icon.
  'state.operational': 'Operational',
  'state.degraded': 'Degraded',
  'state.down': 'Down',
  'state.maintenance': 'Under maintenance',
  'state.unknown': 'No data',
  // What a day of the uptime strip was (lower case: it follows the day's uptime).
  'day.degraded': 'degraded',
  'day.down': 'outage',
  'day.maintenance': 'maintenance',
  'day.unknown': 'no data',
  // The page's overall state (the words of src/domain/states.ts overallState).
  'overall.majorOutage': 'Major outage',
  'overall.partialOutageCount':
    'Partial outage: {down, number} of {total, plural, one {# component} other {# components}} down',
  'overall.partialOutage': 'Partial outage',
  'overall.maintenance': 'Scheduled maintenance in progress',
  'overall.degraded': 'Degraded performance',
  'overall.unknown': 'Status unknown',
  'overall.operationalReporting': 'All reporting systems operational ({unknown, number} not reporting)',
  'overall.operational': 'All systems operational',
  'incident.status.investigating': 'Investigating',
  'incident.status.identified': 'Identified',
  'incident.status.monitoring': 'Monitoring',
  'incident.status.resolved': 'Resolved',
  'incident.impact.none': 'No impact',
  'incident.impact.minor': 'Minor impact',
  'incident.impact.major': 'Major impact',
  'incident.impact.critical': 'Critical impact',
  // How long something lasted, shortest unit first.
  ...ABBREVIATED_DURATIONS,
  'uptime.noData': 'no data',
  'uptime.value': '{uptime} uptime',
  'players.count': '{count, plural, one {# player} other {# players}}',
  // Who is online (a page that shows player names): the disclosure's summary, its note when the list is partial.
  'players.online': '{count, number} online',
  'players.shown': 'Showing {shown, number} of {count, number}',
  'players.listLabel': 'Who is online',
  'players.ofMax': '{count} / {max} players',
  'common.poweredBy': 'Powered by Warden',
  'common.statusOf': '{title} status',
  'common.statusPage': 'Status page',
  'common.affects': 'Affects: {components}',
  // How a recurring maintenance window repeats: {schedule} is the snapshot's words for it (English).
  'common.repeats': 'Repeats: {schedule}',

  // The HTML page.
  'page.documentTitle': '{label} · {title} status',
  'page.description': 'Live status of {title}.',
  'page.feedTitle': '{title} incidents',
  'page.skip': 'Skip to content',
  'page.otherFormats': 'Other formats',
  'page.subscribeLink': 'Subscribe',
  'page.overallStatus': 'Overall status: {state}.',
  'page.lastUpdated': 'Last updated {time}',
  'page.playersOnline': 'Players online',
  'page.componentsOperational': 'Components operational',
  'page.rssFeed': 'RSS feed',
  'page.timeZone': 'Times are in {zone}.',
  'page.language': 'Language',
  // A page's own links in its header (its branding: Discord, website, store…).
  'page.brand.links': 'Links',
  'components.title': 'Components',
  'components.uptimeRange': 'Uptime over the past 90 days',
  'components.none': 'No components on this page yet.',
  'components.otherGroup': 'Other',
  'components.since': 'since {time}',
  'components.players': 'Players {count}',
  'components.latency': 'Latency {latency}',
  'components.latencyValue': '{ms} ms',
  'components.version': 'Version {version}',
  'components.uptime30d': '30 days {uptime}',
  'components.motd': 'Message of the day:',
  'components.stripSummary':
    '{name}: {uptime} over the past 90 days, {bad, plural, =0 {no days with issues} one {# day with issues} other {# days with issues}}',
  'components.stripNoData': 'no uptime data',
  'components.daysAgo90': '90 days ago',
  'components.daysAgo30': '30 days ago',
  'components.today': 'Today',
  'components.noData': 'No data',
  'components.dayTitle': '{date}: {uptime}',
  'components.dayTitleWithState': '{date}: {uptime}, {state}',
  'incidents.active': 'Active incidents',
  'incidents.maintenance': 'Maintenance',
  'incidents.recent': 'Recent incidents',
  'incidents.noneRecent': 'No incidents in the last 14 days.',
  'incidents.started': 'started {time}',
  'incidents.resolvedAfter': 'resolved {time} after {duration}',
  'incidents.affects': 'Affects {components}',
  'incidents.updates': 'Updates, newest first',
  'incidents.inProgress': 'In progress',
  'incidents.scheduled': 'Scheduled',
  'incidents.until': 'until {time}',
  'incidents.window': '{start} to {end}',
  'subscribe.title': 'Get updates',
  'subscribe.intro':
    '{channel, select, email {Get an email} other {Get a webhook}} when an incident is posted or updated and when maintenance starts or ends. Every message has an unsubscribe link.',
  'subscribe.email': 'Email address',
  'subscribe.button': 'Subscribe',
  'subscribe.webhookIntro':
    'Warden first posts a verification request to the URL, signed per Standard Webhooks; your endpoint answers it with the {challenge} it carries. The signing secret is shown once.',
  'subscribe.webhook': 'Webhook URL',
  'subscribe.webhookButton': 'Subscribe the webhook',
  'subscribe.orWebhook': 'Or get a webhook',
  'subscribe.discord': 'Discord channel',
  'subscribe.discordUrl': 'Discord webhook URL',
  'subscribe.discordHint':
    'In Discord: Server Settings → Integrations → Webhooks → New Webhook, pick the channel, then Copy Webhook URL. Deleting the webhook later unsubscribes the channel.',
  'subscribe.slack': 'Slack channel',
  'subscribe.slackUrl': 'Slack webhook URL',
  'subscribe.slackHint':
    'An incoming webhook of a Slack app in your workspace, posting to the channel (https://hooks.slack.com/services/…). Nothing is sent until the page’s owner approves it.',
  'subscribe.channelButton': 'Subscribe the channel',
  'subscribe.discordSubscribed': 'Subscribed: channel {channel} in server {guild}, through the webhook “{webhook}”.',
  'subscribe.discordOpen': 'Open the channel in Discord',
  'subscribe.slackPending': 'Waiting for the page owner’s approval: nothing is sent to the channel until then.',
  'subscribe.sending': 'Subscribing…',
  'notice.discordSubscribed': 'Discord channel subscribed',
  'notice.slackPending': 'Waiting for approval',
  // The small pages the subscribe form and the links of its mails answer with.
  'notice.backTo': 'Back to {title}',
  'notice.checkInbox': 'Check your inbox',
  'notice.checkInboxText':
    'If the address can receive mail, a confirmation link is on its way. Follow it within 48 hours to start getting updates.',
  'notice.nothingUntilConfirmed': 'Nothing is sent until you confirm.',
  'notice.webhookSubscribed': 'Webhook subscribed',
  'notice.webhookSubscribedText':
    'Your endpoint answered its challenge: it will get every incident and maintenance notice, signed per Standard Webhooks with the secret below.',
  'notice.keepSecret': 'Keep the secret now: it is not shown again. To unsubscribe, POST to:',
  'notice.signingSecret': 'Signing secret',
  'notice.confirmed': 'Subscription confirmed',
  'notice.confirmedText':
    '{address} will get {title}’s incidents and maintenance. Every message has an unsubscribe link.',
  'notice.invalidLink': 'This link is not valid',
  'notice.invalidLinkText':
    'This confirmation link is not valid, or no longer: it may have been used already, or it expired (links work for 48 hours). Subscribe again from the page.',
  'notice.unsubscribeQuestion': 'Unsubscribe?',
  'notice.unsubscribeQuestionText': 'Stop sending {title}’s incidents and maintenance to {address}?',
  'notice.unsubscribeButton': 'Unsubscribe',
  'notice.unsubscribed': 'Unsubscribed',
  'notice.unsubscribedText': '{address} will get nothing more from {title}.',
  'notice.nothingToUnsubscribe': 'Nothing to unsubscribe',
  'notice.nothingToUnsubscribeText': 'This link is not valid, or no longer: the subscription may be gone already.',
  'notice.failed': 'Could not subscribe',
  'notice.tooManyRequests':
    'Too many subscribe requests from your address; try again in {seconds, plural, one {# second} other {# seconds}}.',

  // The components section: a state beside its check, the days of the strip, the charts.
  'page.component.uptimeRange30': 'Uptime over the past 30 days',
  'page.component.checkNote': '{check} · {reason}',
  'page.component.checkPassing': 'Check passing',
  'page.component.checkDegraded': 'Check passing, but degraded',
  'page.component.checkDegradedWith': 'Check passing, but degraded: {message}',
  'page.component.checkFailing': 'Check failing',
  'page.component.checkFailingWith': 'Check failing: {error}',
  'page.component.checkUnknown': 'No recent check',
  'page.component.byIncident': 'affected by incident “{title}”',
  'page.component.byIncidents': 'affected by {count, plural, one {# incident} other {# incidents}}',
  'page.component.byMaintenance': 'under maintenance',
  'page.history.noneResolved': 'No resolved incidents in the last 14 days.',
  // Lines of a day's details in the uptime strip (its tooltip, and the popover the page script shows).
  'page.day.down': '{duration} down',
  'page.day.incident': 'Incident: {title}',
  'page.chart.ranges': 'Chart period',
  'page.chart.range24h': '24 h',
  'page.chart.range7d': '7 d',
  'page.chart.range30d': '30 d',
  'page.chart.window24h': '24 hours',
  'page.chart.window7d': '7 days',
  'page.chart.window30d': '30 days',
  'page.chart.ms': '{ms} ms',
  'page.chart.latencyTitle': 'Response time',
  'page.chart.median': 'median {value}',
  'page.chart.p95': '95th percentile {value}',
  'page.chart.latencyLabel': 'Response time over {window}: median {p50}, 95th percentile {p95}',
  'page.chart.latencyNoData': 'Response time over {window}: no data',
  'page.chart.latencyLatest': 'Latest period: median {p50}, 95th percentile {p95}.',
  'page.chart.playersTitle': 'Players',
  'page.chart.average': 'average {value}',
  'page.chart.span': 'fewest {min}, most {max}',
  'page.chart.playersLabel': 'Players over {window}: average {avg}, fewest {min}, most {max}',
  'page.chart.playersNoData': 'Players over {window}: no data',
  'page.chart.playersLatest': 'Latest period: {min} to {max} players, {avg} on average.',

  // The Markdown form.
  'md.overallStatus': 'Overall status: {state}',
  'md.playersOnline': 'Players online: {count}',
  'md.playersOnlineOfMax': 'Players online: {count} of {max}',
  'md.page': 'Page:',
  // The columns of the components table.
  'md.columnComponent': 'Component',
  'md.columnStatus': 'Status',
  'md.columnUptime30d': 'Uptime 30 d',
  'md.columnUptime90d': 'Uptime 90 d',
  'md.columnLive': 'Live',
  'md.latency': 'latency {ms} ms',
  'md.version': 'version {version}',
  'md.motd': 'MOTD: {motd}',
  'md.note': 'note: {note}',
  'md.checked': 'checked {time}',
  'md.recentTitle': 'Recent incidents (last 14 days)',
  'md.status': 'Status: {status}',
  'md.resolvedLasted': 'resolved {time} (lasted {duration})',
  'md.upcoming': 'Upcoming',
  'md.generated': 'Generated at {time}. Times are in {zone}.',

  // The RSS feed.
  'feed.description': 'Incidents (active and of the last 14 days) and scheduled maintenance of {title}.',
  'feed.incidentTitle': '{title} ({impact}, {status})',
  'feed.maintenanceInProgress': 'Maintenance in progress: {title} ({span})',
  'feed.maintenanceScheduled': 'Scheduled maintenance: {title} ({span})',

  // The Open Graph image.
  'og.status': 'Status',
  'og.uptime30d': '30-day uptime',
  'og.more': '+ {count, number} more',
  'og.moreNotOperational': '+ {count, number} more ({notOk, number} not operational)',

  // The embed.
  'embed.open': '{title}: full status (opens in a new tab)',
  'embed.online': 'online',
  'embed.openComponent': '{component} on {title}: full status (opens in a new tab)',
  'embed.playersOnline': '{players} online',
  'embed.latency': 'latency {latency}',
  'embed.unknownComponent': 'This status page has no such component.',

  // The password page of a protected page.
  'login.documentTitle': 'Password required',
  'login.heading': 'Private status page',
  'login.text': 'This status page is private. Enter its password to see it.',
  'login.password': 'Password',
  'login.button': 'View status',
  'login.wrongPassword': 'That password is not right.',
  'login.tooManyAttempts':
    'Too many wrong passwords for this page from your address; try again in {seconds, plural, one {# second} other {# seconds}}.',

  // The 404 of an unknown page.
  'notFound.documentTitle': 'Status page not found',
  'notFound.site': 'Status pages',
  'notFound.heading': 'No status page called “{slug}” here',
  'notFound.text':
    'The address may be mistyped, or the page was renamed or removed. Check the link you followed, or ask the community that shared it for the current one.',
  ...JOIN_WORDS.en,
  ...HISTORY_WORDS.en,
  ...LOCATION_WORDS.en,
  ...GAME_CHANGE_WORDS.en,
} as const;

export type MessageKey = keyof typeof en;
export type Catalogue = Record<MessageKey, string>;
