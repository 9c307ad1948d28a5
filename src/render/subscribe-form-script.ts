// The channel forms of the subscribe block (html-subscribe-channels.ts), for the HTML page's script.

/*
 * Plain ES2017, inside the script hashed into the page's policy. One submit listener on the document. A form marked
 * data-subscribe (discord or slack) is posted as JSON to its own action (the page's subscribe path, ?lang kept)
 * instead of leaving the page, and the answer is shown in the form's live region beside the field: Discord's guild
 * and channel with a link to the channel, Slack's wait for approval, or the refusal in the API's words (role=alert,
 * the field marked invalid and focused again). Without fetch the form posts as it would without script.
 */
export const SUBSCRIBE_FORM_SCRIPT = `function subscribeForms(doc) {
  doc.addEventListener('submit', function (event) {
    var form = event.target;
    var kind = form && form.getAttribute ? form.getAttribute('data-subscribe') : null;
    if (!kind || !window.fetch) return;
    event.preventDefault();
    if (form.getAttribute('aria-busy') === 'true') return;
    var input = form.querySelector('input[name="' + kind + '"]');
    var answer = form.querySelector('.answer');
    if (!input || !answer) return;
    function say(text, ok, link) {
      var line = doc.createElement('p');
      line.className = ok ? 'answer-ok' : 'answer-error';
      line.setAttribute('role', ok ? 'status' : 'alert');
      line.textContent = text;
      if (link) {
        var anchor = doc.createElement('a');
        anchor.href = link;
        anchor.textContent = form.getAttribute('data-open') || link;
        line.appendChild(doc.createTextNode(' '));
        line.appendChild(anchor);
      }
      answer.replaceChildren(line);
      if (ok) input.removeAttribute('aria-invalid');
      else {
        input.setAttribute('aria-invalid', 'true');
        input.focus();
      }
    }
    function refused(problem) {
      var said = (problem.errors || []).filter(function (issue) { return issue.path === kind || issue.path === 'body.' + kind; })[0];
      var why = (said && said.message) || problem.detail || problem.title || '';
      say((form.getAttribute('data-failed') || '') + (why ? ': ' + why : ''), false);
    }
    function answered(status, body) {
      if (status >= 400) return refused(body);
      var done = form.getAttribute('data-done') || '';
      var hook = body.discord;
      if (!hook) {
        say(done, true);
        return form.reset();
      }
      var text = done.replace('{channel}', hook.channelId || '?').replace('{guild}', hook.guildId || '?').replace('{webhook}', hook.name || hook.id);
      var link = hook.guildId && hook.channelId ? 'https://discord.com/channels/' + encodeURIComponent(hook.guildId) + '/' + encodeURIComponent(hook.channelId) : '';
      say(text, true, link);
      form.reset();
    }
    var body = {};
    body[kind] = input.value;
    form.setAttribute('aria-busy', 'true');
    answer.textContent = form.getAttribute('data-sending') || '';
    fetch(form.action, {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify(body),
    })
      .then(function (response) {
        return response.json().then(function (data) {
          answered(response.status, data || {});
        });
      })
      .catch(function () {
        say(form.getAttribute('data-failed') || '', false);
      })
      .then(function () {
        form.removeAttribute('aria-busy');
      });
  });
}`;
