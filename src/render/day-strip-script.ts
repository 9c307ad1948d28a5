// The uptime strip's day details, for the HTML page's script: one focusable strip per component, one shared popover.

/*
 * Plain ES2017 text, pasted into the page script (whose exact bytes are hashed into the page's Content-Security-Policy).
 * Without script each bar's `title` holds its day's lines (date and uptime, minutes down, incidents) as a tooltip. With
 * it, `dayStrips(doc)` upgrades each `.strip`: the titles move to data-t (no double tooltip), and the strip becomes one
 * tab stop, a slider over the visible days (phones hide the oldest 60): arrow keys move a day, Home/End go to the
 * ends, Escape hides the details. The day's lines are the slider's aria-valuetext, which screen readers announce as it
 * moves; one shared popover (created here, so the page carries no markup for it) shows them beside the day on focus,
 * hover and tap. Only strips and bars are touched, and listeners sit on the document, so a swapped <main> needs only
 * `upgrade()` again; `held()` before a swap and `restore()` after keep a reader's place in a strip.
 */
export const DAY_STRIP_SCRIPT = `function dayStrips(doc) {
    var pop = null;
    var active = null;
    function isStrip(el) {
      return !!el && !!el.classList && el.classList.contains('strip') && el.hasAttribute('tabindex');
    }
    function bars(strip) {
      return Array.prototype.filter.call(strip.children, function (bar) {
        return bar.getClientRects().length > 0;
      });
    }
    function lines(bar) {
      return (bar.getAttribute('data-t') || '').split('\\n');
    }
    function current(strip) {
      var list = bars(strip);
      var index = Number(strip.getAttribute('aria-valuenow')) || list.length;
      return list[Math.min(Math.max(index, 1), list.length) - 1];
    }
    function popover() {
      if (!pop) {
        pop = doc.createElement('div');
        pop.className = 'day-pop';
        pop.setAttribute('aria-hidden', 'true');
        pop.hidden = true;
        doc.body.appendChild(pop);
      }
      return pop;
    }
    function place(bar) {
      var el = popover();
      el.replaceChildren();
      lines(bar).forEach(function (text) {
        var line = doc.createElement('p');
        line.textContent = text;
        el.appendChild(line);
      });
      el.hidden = false;
      var box = bar.getBoundingClientRect();
      var width = el.offsetWidth;
      var height = el.offsetHeight;
      var left = Math.max(8, Math.min(box.left + box.width / 2 - width / 2, doc.documentElement.clientWidth - width - 8));
      var top = box.top - height - 8;
      if (top < 8) top = box.bottom + 8;
      el.style.left = Math.round(left + window.scrollX) + 'px';
      el.style.top = Math.round(top + window.scrollY) + 'px';
    }
    function hide() {
      if (pop) pop.hidden = true;
      if (active) active.bar.classList.remove('on');
      active = null;
    }
    function select(strip, bar, show) {
      var list = bars(strip);
      if (list.length === 0) return;
      if (list.indexOf(bar) < 0) bar = list[list.length - 1];
      strip.setAttribute('aria-valuemax', String(list.length));
      strip.setAttribute('aria-valuenow', String(list.indexOf(bar) + 1));
      strip.setAttribute('aria-valuetext', lines(bar).join('. '));
      if (!show) return;
      hide();
      bar.classList.add('on');
      active = { strip: strip, bar: bar };
      place(bar);
    }
    function upgrade() {
      doc.querySelectorAll('.strip').forEach(function (strip) {
        if (strip.hasAttribute('tabindex')) return;
        Array.prototype.forEach.call(strip.children, function (bar) {
          bar.setAttribute('data-t', bar.title);
          bar.removeAttribute('title');
        });
        strip.setAttribute('tabindex', '0');
        strip.setAttribute('role', 'slider');
        strip.setAttribute('aria-valuemin', '1');
        select(strip, null, false);
      });
    }
    doc.addEventListener('keydown', function (event) {
      var strip = event.target;
      if (!isStrip(strip)) return;
      var list = bars(strip);
      var index = list.indexOf(current(strip));
      var keys = { ArrowLeft: index - 1, ArrowDown: index - 1, ArrowRight: index + 1, ArrowUp: index + 1, Home: 0, End: list.length - 1 };
      if (event.key === 'Escape') return hide();
      if (!(event.key in keys)) return;
      event.preventDefault();
      select(strip, list[Math.min(Math.max(keys[event.key], 0), list.length - 1)], true);
    });
    doc.addEventListener('focusin', function (event) {
      if (isStrip(event.target)) select(event.target, current(event.target), true);
    });
    doc.addEventListener('focusout', function (event) {
      if (isStrip(event.target)) hide();
    });
    doc.addEventListener('click', function (event) {
      var strip = event.target.parentNode;
      if (!isStrip(strip)) return;
      strip.focus({ preventScroll: true });
      select(strip, event.target, true);
    });
    doc.addEventListener('mouseover', function (event) {
      var strip = event.target.parentNode;
      if (isStrip(strip)) select(strip, event.target, true);
    });
    doc.addEventListener('mouseout', function (event) {
      var strip = event.target.parentNode;
      if (!isStrip(strip) || (event.relatedTarget && event.relatedTarget.parentNode === strip)) return;
      var focused = doc.activeElement;
      if (isStrip(focused)) select(focused, current(focused), true);
      else hide();
    });
    return {
      upgrade: upgrade,
      held: function () {
        var strip = doc.activeElement;
        var item = isStrip(strip) ? strip.closest('[data-component-id]') : null;
        return item ? { id: item.getAttribute('data-component-id'), day: Number(strip.getAttribute('aria-valuenow')) } : null;
      },
      restore: function (held) {
        hide();
        if (!held) return;
        var items = doc.querySelectorAll('[data-component-id]');
        for (var i = 0; i < items.length; i++) {
          var strip = items[i].getAttribute('data-component-id') === held.id ? items[i].querySelector('.strip') : null;
          if (!isStrip(strip)) continue;
          strip.setAttribute('aria-valuenow', String(held.day));
          strip.focus({ preventScroll: true });
          return;
        }
      },
    };
  }`;
