// The copy buttons of join controls (html-join.ts), for the HTML page's script and the embed's.

/*
 * Plain ES2017, inside scripts hashed into their pages' policies. One listener on the document, so buttons in parts
 * the page swaps in later work too. A click (Enter and Space included) writes the address to the clipboard and says
 * "Copied" in the button's status region for a few seconds; where the clipboard is missing or refused (an old
 * browser, a frame without clipboard-write), it selects the address text beside the button and says how to copy it.
 */
export const JOIN_COPY_SCRIPT = `function joinCopies(doc) {
  doc.addEventListener('click', function (event) {
    var button = event.target && event.target.closest ? event.target.closest('button[data-copy]') : null;
    if (!button) return;
    var box = button.closest('.join');
    var note = box ? box.querySelector('.join-note') : null;
    var shown = box ? box.querySelector('.join-address') : null;
    function say(text, ok) {
      if (!note) return;
      note.textContent = text;
      note.className = ok ? 'join-note ok' : 'join-note';
      clearTimeout(note._joinTimer);
      if (ok) note._joinTimer = setTimeout(function () { note.textContent = ''; }, 4000);
    }
    function byHand() {
      if (shown && window.getSelection) {
        var range = doc.createRange();
        range.selectNodeContents(shown);
        var selection = window.getSelection();
        selection.removeAllRanges();
        selection.addRange(range);
      }
      say(button.getAttribute('data-fallback') || '', false);
    }
    var clipboard = navigator.clipboard;
    if (!clipboard || !clipboard.writeText) return byHand();
    clipboard.writeText(button.getAttribute('data-copy') || '').then(function () {
      say(button.getAttribute('data-copied') || '', true);
    }, byHand);
  });
}`;
