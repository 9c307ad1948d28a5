// The one small script of the HTML status page: local times, and refreshing the page in place every few seconds.

/*
 * Kept as plain ES2017 text (not compiled TypeScript) because its exact bytes are hashed into the page's
 * Content-Security-Policy. What it does, and why:
 * - times: each <time data-local> is shown in the reader's zone; "Last updated" (data-relative) as "2 min ago"
 *   while recent. The server writes UTC so the HTML stays identical for everyone and cacheable.
 * - refresh: every data-refresh seconds it fetches the page's own URL (cookies included, so password-protected
 *   pages keep working) and swaps the header, <main> and footer in place — no flash, no lost scroll. A part is
 *   swapped only when its served markup changed, so an open incident or keyboard focus is left alone otherwise.
 *   A response that is not a status page (a password form after the session expired) is ignored.
 * - hidden tabs are not refreshed; coming back refreshes at once. A state change is announced to screen readers.
 */
export const PAGE_SCRIPT = `(function () {
  var doc = document;
  var seconds = Number(doc.documentElement.getAttribute('data-refresh'));
  var parts = ['header', 'main', 'footer'];
  var served = {};
  var busy = false;
  parts.forEach(function (name) {
    var el = doc.querySelector(name);
    if (el) served[name] = el.innerHTML;
  });
  function label() {
    var el = doc.querySelector('.banner-label');
    return el ? el.textContent : '';
  }
  function relative(at) {
    var ago = Math.round((Date.now() - at.getTime()) / 1000);
    if (ago < -60 || ago > 86400) return null;
    if (ago < 45) return 'just now';
    if (ago < 3600) return Math.round(ago / 60) + ' min ago';
    var hours = Math.round(ago / 3600);
    return hours + (hours === 1 ? ' hour ago' : ' hours ago');
  }
  function times() {
    doc.querySelectorAll('time[data-local]').forEach(function (el) {
      var at = new Date(el.getAttribute('datetime'));
      if (isNaN(at.getTime())) return;
      if (!el.title) el.title = el.textContent;
      var full = at.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
      var text = el.hasAttribute('data-relative') ? relative(at) : null;
      el.textContent = text || full;
      if (text) el.title = full;
    });
  }
  function apply(html) {
    var next = new DOMParser().parseFromString(html, 'text/html');
    if (!next.documentElement.hasAttribute('data-refresh')) return;
    var before = label();
    var x = window.scrollX;
    var y = window.scrollY;
    parts.forEach(function (name) {
      var now = doc.querySelector(name);
      var fresh = next.querySelector(name);
      if (!now || !fresh || served[name] === fresh.innerHTML) return;
      served[name] = fresh.innerHTML;
      now.replaceChildren.apply(now, Array.prototype.slice.call(fresh.childNodes));
    });
    if (next.title) doc.title = next.title;
    var icon = doc.querySelector('link[rel=icon]');
    var freshIcon = next.querySelector('link[rel=icon]');
    if (icon && freshIcon) icon.setAttribute('href', freshIcon.getAttribute('href'));
    times();
    window.scrollTo(x, y);
    var after = label();
    var live = doc.getElementById('announce');
    if (live && after !== before) live.textContent = after;
  }
  function refresh() {
    if (busy || doc.visibilityState === 'hidden') return;
    busy = true;
    fetch(location.href, { credentials: 'same-origin', cache: 'no-cache', headers: { Accept: 'text/html' } })
      .then(function (response) {
        if (!response.ok) throw new Error('status ' + response.status);
        return response.text();
      })
      .then(apply)
      .catch(function () {})
      .then(function () { busy = false; });
  }
  times();
  setInterval(times, 30000);
  if (seconds > 0 && window.fetch && window.DOMParser) {
    setInterval(refresh, seconds * 1000);
    doc.addEventListener('visibilitychange', function () {
      if (doc.visibilityState === 'visible') refresh();
    });
  }
})();`;
