// The one small script of the HTML status page: local times, and keeping the page current from the live stream (polling without it).
import { DAY_STRIP_SCRIPT } from './day-strip-script.js';
import { JOIN_COPY_SCRIPT } from './join-copy-script.js';
import { LIVE_CLIENT_SCRIPT, REFETCH_CLIENT_SCRIPT } from './live-client-script.js';
import { SUBSCRIBE_FORM_SCRIPT } from './subscribe-form-script.js';

/*
 * Kept as plain ES2017 text (not compiled TypeScript) because its exact bytes are hashed into the page's
 * Content-Security-Policy. What it does, and why:
 * - times: the server writes each <time data-local> in the page's time zone and language (the same bytes for every
 *   reader of that language, so cacheable); the script adds the reader's own local time as its title, and shows
 *   "Last updated" (data-relative) as "3 minutes ago" while recent, in the page's language (<html lang>) by
 *   Intl.RelativeTimeFormat, keeping the server's words where the browser lacks it.
 * - live: it listens to the page's WebSocket stream (data-live). A message says the page changed; the script then
 *   fetches the page's own URL (cookies included, so password-protected pages keep working) and swaps the header,
 *   <main> and footer in place — no flash, no lost scroll. The HTML is still rendered by the server alone, from
 *   the same snapshot as every other form, and served from its cache. A change of state, incident or maintenance
 *   is fetched within a second (spread at random so thousands of readers do not ask at the same instant); a
 *   change of live data only (players, latency) within 5 to 15 s, coalesced.
 * - polling: while the stream is down (not supported, blocked, reconnecting), every data-refresh seconds.
 * - A part is swapped only when its served markup changed, so an open incident, keyboard focus or a day's popover is
 *   left alone otherwise (a refresh that changed nothing touches nothing but the relative times). A response that is
 *   not a status page (the login page after the session expired) is ignored.
 * - hidden tabs are not refreshed; coming back refreshes at once. A state change is announced to screen readers.
 * - uptime strips: each day's details by keyboard, hover and tap (day-strip-script.ts); a swap keeps a reader's day.
 * - join buttons: copy a game server's address to the clipboard (join-copy-script.ts).
 * - subscribe: a Discord or Slack channel's form answers in place (subscribe-form-script.ts).
 * - who is online (html-players.ts): a swap keeps an opened list open, and the keyboard focus on its toggle.
 */
export const PAGE_SCRIPT = `(function () {
  var doc = document;
  var root = doc.documentElement;
  var lang = root.lang || 'en';
  var ago = window.Intl && Intl.RelativeTimeFormat ? new Intl.RelativeTimeFormat(lang, { numeric: 'auto' }) : null;
  var seconds = Number(root.getAttribute('data-refresh'));
  var shownAt = Number(root.getAttribute('data-generated')) || 0;
  var parts = ['header', 'main', 'footer'];
  var served = {};
  var connected = false;
  parts.forEach(function (name) {
    var el = doc.querySelector(name);
    if (el) served[name] = el.innerHTML;
  });
  function label() {
    var el = doc.querySelector('.banner-label');
    return el ? el.textContent : '';
  }
  function relative(at) {
    var seconds = Math.round((Date.now() - at.getTime()) / 1000);
    if (!ago || seconds < -60 || seconds > 86400) return null;
    if (seconds < 45) return ago.format(0, 'second');
    if (seconds < 3600) return ago.format(-Math.round(seconds / 60), 'minute');
    return ago.format(-Math.round(seconds / 3600), 'hour');
  }
  function yours(at) {
    try {
      return at.toLocaleString(lang, { day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit', timeZoneName: 'short' });
    } catch (error) {
      return '';
    }
  }
  function times() {
    doc.querySelectorAll('time[data-local]').forEach(function (el) {
      var at = new Date(el.getAttribute('datetime'));
      if (isNaN(at.getTime())) return;
      if (!el.hasAttribute('data-shown')) el.setAttribute('data-shown', el.textContent);
      var shown = el.getAttribute('data-shown');
      var text = el.hasAttribute('data-relative') ? relative(at) : null;
      el.textContent = text || shown;
      el.title = text ? shown : yours(at);
    });
  }
  function apply(html) {
    var next = new DOMParser().parseFromString(html, 'text/html');
    if (!next.documentElement.hasAttribute('data-refresh')) return;
    shownAt = Math.max(shownAt, Number(next.documentElement.getAttribute('data-generated')) || 0);
    var before = label();
    var held = strips.held();
    var who = whoHeld();
    var x = window.scrollX;
    var y = window.scrollY;
    var swapped = false;
    parts.forEach(function (name) {
      var now = doc.querySelector(name);
      var fresh = next.querySelector(name);
      if (!now || !fresh || served[name] === fresh.innerHTML) return;
      served[name] = fresh.innerHTML;
      now.replaceChildren.apply(now, Array.prototype.slice.call(fresh.childNodes));
      swapped = true;
    });
    if (next.title) doc.title = next.title;
    var icon = doc.querySelector('link[rel=icon]');
    var freshIcon = next.querySelector('link[rel=icon]');
    if (icon && freshIcon) icon.setAttribute('href', freshIcon.getAttribute('href'));
    times();
    if (!swapped) return;
    strips.upgrade();
    strips.restore(held);
    whoRestore(who);
    window.scrollTo(x, y);
    var after = label();
    var live = doc.getElementById('announce');
    if (live && after !== before) live.textContent = after;
  }
  function whoHeld() {
    var active = doc.activeElement;
    var open = [];
    doc.querySelectorAll('details.who[open][id]').forEach(function (el) {
      open.push(el.id);
    });
    var focus = active && active.tagName === 'SUMMARY' && active.parentElement.matches('details.who') ? active.parentElement.id : '';
    return { open: open, focus: focus };
  }
  function whoRestore(held) {
    held.open.forEach(function (id) {
      var el = doc.getElementById(id);
      if (el) el.open = true;
    });
    var toggle = held.focus && doc.getElementById(held.focus);
    if (toggle && !toggle.contains(doc.activeElement)) toggle.querySelector('summary').focus();
  }
  ${REFETCH_CLIENT_SCRIPT}
  function changed(message) {
    if (message.type === 'snapshot') {
      if (message.at > shownAt) soon(0, 1000);
    } else if (message.type === 'monitor.update' && message.previousState === message.component.state) {
      soon(5000, 15000);
    } else {
      soon(0, 1000);
    }
  }
  var strips = dayStrips(doc);
  joinCopies(doc);
  subscribeForms(doc);
  times();
  strips.upgrade();
  setInterval(times, 30000);
  if (seconds > 0 && window.fetch && window.DOMParser) {
    setInterval(function () {
      if (!connected) refresh();
    }, seconds * 1000);
    doc.addEventListener('visibilitychange', function () {
      if (doc.visibilityState === 'visible') refresh();
    });
    live(root.getAttribute('data-live'), changed, function (up) {
      connected = up;
    });
  }
  ${LIVE_CLIENT_SCRIPT}
  ${DAY_STRIP_SCRIPT}
  ${JOIN_COPY_SCRIPT}
  ${SUBSCRIBE_FORM_SCRIPT}
})();`;
