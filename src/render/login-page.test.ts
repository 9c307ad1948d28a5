// The login page in front of a private page, and the friendly 404: accessible, escaped, in the pages' look.
import { describe, expect, it } from 'vitest';
import { CONTENT_SECURITY_POLICY, PAGE_CSS } from './html-layout.js';
import { renderLoginPage } from './login-page.js';
import { renderNotFoundPage } from './not-found-page.js';

describe('renderLoginPage', () => {
  it('asks for the password in a labelled field POSTed to the action', () => {
    const { contentType, body } = renderLoginPage({ action: '/blockhaven/unlock' });
    expect(contentType).toBe('text/html; charset=utf-8');
    for (const part of [
      '<form method="post" action="/blockhaven/unlock">',
      '<label for="password">Password</label>',
      '<input id="password" name="password" type="password" autocomplete="current-password" required autofocus>',
      '<button class="button" type="submit">View status</button>',
      '<h1>Private status page</h1>',
      '<title>Password required</title>',
      '<meta name="robots" content="noindex">',
      ...['<header', '<main', '<footer'],
      PAGE_CSS,
    ])
      expect(body).toContain(part);
    expect(body).not.toContain('<script');
    expect(body).not.toContain('role="alert"');
  });

  it('shows an error as an alert tied to the field', () => {
    const { body } = renderLoginPage({ action: '/x', error: 'That password is not right.' });
    expect(body).toMatch(
      /<p class="error" id="password-error" role="alert"><svg [^>]*aria-hidden="true".*<\/svg>That password is not right\.<\/p>/,
    );
    expect(body).toContain('aria-describedby="password-error" aria-invalid="true"');
  });

  it('escapes the action and the error', () => {
    const { body } = renderLoginPage({ action: '/x" onmouseover="alert(2)', error: '<script>alert(3)</script>' });
    expect(body).not.toMatch(/<script|" onmouseover/);
    expect(body).toContain('action="/x&quot; onmouseover=&quot;alert(2)"');
  });
});

describe('renderNotFoundPage', () => {
  it('says kindly that there is no page by that name', () => {
    const { contentType, body } = renderNotFoundPage('blockhavn');
    expect(contentType).toBe('text/html; charset=utf-8');
    expect(body).toContain('<h1>No status page called “blockhavn” here</h1>');
    expect(body).toContain('<title>Status page not found</title>');
    expect(body).toContain(
      `<meta http-equiv="Content-Security-Policy" content="${CONTENT_SECURITY_POLICY.replace(/'/g, '&#39;')}">`,
    );
  });

  it('escapes and shortens a hostile slug', () => {
    const { body } = renderNotFoundPage(`<script>alert(1)</script>${'x'.repeat(500)}`);
    expect(body).not.toContain('<script>alert');
    expect(body).toContain('“&lt;script&gt;alert(1)&lt;/script&gt;xxx');
    expect(body).not.toContain('x'.repeat(200));
  });
});
