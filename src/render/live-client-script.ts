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
