// The live-stream client both page scripts embed: connect to /live, reconnect with backoff, say when the stream is down.

/*
 * Plain ES2017 text, pasted into the HTML page's and the embed's scripts (whose exact bytes are hashed into their
 * Content-Security-Policy). `live(path, onMessage, onConnected)` opens a WebSocket to `path` on this host (ws: or
 * wss: like the page), hands each parsed message to onMessage, and calls onConnected(true|false) as the stream comes
 * and goes. A lost stream is retried after 1, 2, 4… up to 60 s, each halved-plus-random so that thousands of
 * readers dropped together (a server restart) do not come back in one wave. Without WebSocket support it reports
 * "down" once and the caller polls.
 */
export const LIVE_CLIENT_SCRIPT = `function live(path, onMessage, onConnected) {
    var attempts = 0;
    function retry() {
      attempts++;
      var delay = Math.min(60000, 1000 * Math.pow(2, attempts - 1));
      setTimeout(open, delay / 2 + Math.random() * delay / 2);
    }
    function open() {
      var socket;
      try {
        socket = new WebSocket((location.protocol === 'https:' ? 'wss://' : 'ws://') + location.host + path);
      } catch (error) {
        retry();
        return;
      }
      socket.onopen = function () {
        attempts = 0;
        onConnected(true);
      };
      socket.onmessage = function (event) {
        var message;
        try {
          message = JSON.parse(event.data);
        } catch (error) {
          return;
        }
        if (message && typeof message.type === 'string') onMessage(message);
      };
      socket.onclose = function () {
        onConnected(false);
        retry();
      };
    }
    if (path && window.WebSocket) open();
    else onConnected(false);
  }`;

/*
 * The refetch both page scripts paste (same CSP-hash rule as LIVE_CLIENT_SCRIPT): `refresh()` fetches this document
 * again and hands the HTML to the enclosing script's `apply(html)`, once at a time (a change announced while a fetch is
 * under way may be newer than what that fetch gets: it fetches once more after); `soon(min, max)` schedules one at a
 * random moment in that window (ms), keeping an earlier one already due, so readers told together do not ask together.
 */
export const REFETCH_CLIENT_SCRIPT = `var busy = false;
  var again = false;
  var timer = null;
  var dueAt = 0;
  function refresh() {
    if (doc.visibilityState === 'hidden' || !window.fetch || !window.DOMParser) return;
    if (busy) {
      again = true;
      return;
    }
    busy = true;
    fetch(location.href, { credentials: 'same-origin', cache: 'no-cache', headers: { Accept: 'text/html' } })
      .then(function (response) {
        if (!response.ok) throw new Error('status ' + response.status);
        return response.text();
      })
      .then(apply)
      .catch(function () {})
      .then(function () {
        busy = false;
        if (again) {
          again = false;
          refresh();
        }
      });
  }
  function soon(min, max) {
    var at = Date.now() + min + Math.random() * (max - min);
    if (timer && dueAt <= at) return;
    clearTimeout(timer);
    dueAt = at;
    timer = setTimeout(function () {
      timer = null;
      refresh();
    }, at - Date.now());
  }`;
