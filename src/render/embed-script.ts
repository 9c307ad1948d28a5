// The embed widget's one script: its size told to the host page, its layout alone in a window, and keeping it current.
import { JOIN_COPY_SCRIPT } from './join-copy-script.js';
import { LIVE_CLIENT_SCRIPT, REFETCH_CLIENT_SCRIPT } from './live-client-script.js';

/** The message the widget posts to its host page (docs/embed.md): `{ type, slug, height }`, height in CSS pixels. */
export const EMBED_HEIGHT_MESSAGE = 'warden:embed:height';

/*
 * Plain ES2017, hashed into the widget's policy. What it does, and why:
 * - height: in a frame, it posts `{ type: 'warden:embed:height', slug, height }` to the parent (any origin: a slug and
 *   a height are public) at once, on load, whenever its content changes size (ResizeObserver) and after every live
 *   update, so a host sizes the iframe with a few lines of its own script. The height is the card's content plus its
 *   padding and border, not the frame's: the card stretches to fill a taller frame, and measuring that would never
 *   let the frame shrink.
 * - alone: opened in a window of its own (not framed), it marks the document `data-alone`, and the stylesheet shows
 *   a centred card of its natural size instead of a box as big as the window.
 * - compact (data-variant="compact") in English: the stream's `snapshot`, `overall` and `totals` set the state, label
 *   and players directly (counts in the widget's language, <html lang>); while the stream is down it polls the JSON
 *   snapshot once a minute. In another language the stream's label (English) cannot be shown: it updates as below.
 * - full, one component: these show more than the stream's small messages carry, so on a change it fetches its own
 *   URL (the server renders it from the page's cache) and swaps the widget in place, like the HTML page: a state,
 *   incident or maintenance change within a second, players and latency alone within 5 to 15 s, coalesced; while the
 *   stream is down once a minute. A response that is not this widget (a login page, a 404) is ignored.
 * - join: one component's widget may show a button that copies its game server's address (join-copy-script.ts).
 */
export const EMBED_SCRIPT = `(function () {
  var doc = document;
  var root = doc.documentElement;
  var variant = root.getAttribute('data-variant');
  var lang = root.lang || 'en';
  var direct = variant === 'compact' && lang === 'en';
  var slug = root.getAttribute('data-slug');
  var shownAt = Number(root.getAttribute('data-generated')) || 0;
  var framed = window.parent !== window;
  var connected = false;
  var posted = -1;
  var observer = null;
  if (!framed) root.setAttribute('data-alone', '');
  function height() {
    var box = doc.querySelector('.widget');
    var content = doc.querySelector('.content');
    if (!box || !content) return 0;
    var style = getComputedStyle(box);
    var frame = ['paddingTop', 'paddingBottom', 'borderTopWidth', 'borderBottomWidth'].reduce(function (sum, name) {
      return sum + (parseFloat(style[name]) || 0);
    }, 0);
    return Math.ceil(content.getBoundingClientRect().height + frame);
  }
  function post(always) {
    if (!framed) return;
    var now = height();
    if (!always && now === posted) return;
    posted = now;
    window.parent.postMessage({ type: '${EMBED_HEIGHT_MESSAGE}', slug: slug, height: now }, '*');
  }
  function observe() {
    var content = doc.querySelector('.content');
    if (!observer || !content) return;
    observer.disconnect();
    observer.observe(content);
  }
  if (framed && window.ResizeObserver) {
    observer = new ResizeObserver(function () {
      post(false);
    });
    observe();
  }
  post(true);
  window.addEventListener('load', function () {
    post(true);
  });
  function digits(n) {
    try {
      return new Intl.NumberFormat(lang).format(Math.round(n));
    } catch (error) {
      return String(Math.round(n));
    }
  }
  function showOverall(overall) {
    var widget = doc.querySelector('.widget');
    var label = doc.querySelector('.label');
    if (!overall || !widget || !label) return;
    widget.className = 'widget t-' + overall.state;
    widget.setAttribute('data-state', overall.state);
    if (label.textContent !== overall.label) label.textContent = overall.label;
  }
  function showTotals(totals) {
    var players = doc.querySelector('.players');
    var count = doc.querySelector('.players .count');
    if (!totals || !players || !count) return;
    var text = totals.players === null ? '' : digits(totals.players) + (totals.maxPlayers === null ? '' : ' / ' + digits(totals.maxPlayers));
    count.textContent = text;
    players.hidden = text === '';
  }
  function showSnapshot(snapshot) {
    showOverall(snapshot.overall);
    showTotals(snapshot.totals);
    post(true);
  }
  function apply(html) {
    var next = new DOMParser().parseFromString(html, 'text/html');
    if (next.documentElement.getAttribute('data-variant') !== variant) return;
    shownAt = Math.max(shownAt, Number(next.documentElement.getAttribute('data-generated')) || 0);
    if (next.documentElement.hasAttribute('data-component')) root.setAttribute('data-component', next.documentElement.getAttribute('data-component'));
    var now = doc.querySelector('.widget');
    var fresh = next.querySelector('.widget');
    if (now && fresh && now.outerHTML !== fresh.outerHTML) {
      now.replaceWith(doc.adoptNode(fresh));
      observe();
    }
    post(true);
  }
  ${REFETCH_CLIENT_SCRIPT}
  function compact(message) {
    if (message.type === 'snapshot' && message.snapshot) showSnapshot(message.snapshot);
    else if (message.type === 'overall') showSnapshot({ overall: message });
    else if (message.type === 'totals') showSnapshot({ totals: message });
  }
  function changed(message) {
    var mine = root.getAttribute('data-component');
    if (message.type === 'snapshot') {
      if (message.at > shownAt) soon(0, 1000);
    } else if (message.type === 'monitor.update') {
      if (mine !== null && message.component.id !== mine) return;
      if (message.previousState === message.component.state) soon(5000, 15000);
      else soon(0, 1000);
    } else if (mine !== null) {
      return;
    } else if (message.type === 'totals') {
      soon(5000, 15000);
    } else {
      soon(0, 1000);
    }
  }
  function poll() {
    if (connected) return;
    if (!direct) return refresh();
    if (!window.fetch) return;
    fetch(root.getAttribute('data-json'), { cache: 'no-cache' })
      .then(function (response) {
        if (!response.ok) throw new Error('status ' + response.status);
        return response.json();
      })
      .then(showSnapshot)
      .catch(function () {});
  }
  setInterval(poll, 60000);
  live(root.getAttribute('data-live'), direct ? compact : changed, function (up) {
    connected = up;
  });
  ${LIVE_CLIENT_SCRIPT}
  joinCopies(doc);
  ${JOIN_COPY_SCRIPT}
})();`;
