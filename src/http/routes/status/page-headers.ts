// The headers every answer of a page shares: its cache lifetimes, and what each HTML document of it says to browsers.
import { CONTENT_SECURITY_POLICY } from '../../../render/html-layout.js';

export const PUBLIC_CACHE_CONTROL = 'public, max-age=30, s-maxage=30';
export const PRIVATE_CACHE_CONTROL = 'private, no-store';

/**
 * Every HTML document of a page but the embed (the page, its password form, its 404): no other site may frame it
 * (frame-ancestors, which a <meta> policy cannot carry, and X-Frame-Options for older browsers), links send other
 * sites the origin only, and nothing is sniffed.
 */
export const HTML_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'content-security-policy': `${CONTENT_SECURITY_POLICY}; frame-ancestors 'none'`,
  'x-frame-options': 'DENY',
  'referrer-policy': 'strict-origin-when-cross-origin',
  'x-content-type-options': 'nosniff',
});
