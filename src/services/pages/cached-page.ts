// One snapshot version of a page with its forms, each rendered at most once per option set and kept until the next version.
import { etagOf } from '../../domain/etag.js';
import type { Page } from '../../domain/page.js';
import type { Snapshot } from '../../domain/snapshot.js';
import { type FormName, type PageForm, pageForms, type Rendered, type SyncFormName } from '../../render/forms.js';

/** Distinct option sets (e.g. badge styles) kept per form of a page. */
const MAX_VARIANTS_PER_PAGE = 64;

export interface RenderedForm extends Rendered {
  etag: string;
}

/**
 * One snapshot version of a page and its forms, each rendered at most once (per base path and option set) and
 * memoized until the next version. Forms that render asynchronously (og.png) are rendered once even when many
 * requests ask at the same moment: they share the pending promise.
 */
export interface CachedPage {
  page: Page;
  snapshot: Snapshot;
  builtAt: number;
  /** A form that renders synchronously, rendered now if it was not yet. */
  form(name: SyncFormName, basePath: string, options?: Record<string, string>): RenderedForm;
  /** The form's bytes if they are ready without waiting (rendering sync forms now, starting async ones); else undefined. */
  ready(name: FormName, basePath: string, options?: Record<string, string>): RenderedForm | undefined;
  /** The form's bytes, rendering them if needed. */
  render(name: FormName, basePath: string, options?: Record<string, string>): Promise<RenderedForm>;
}

export function withForms(page: Page, snapshot: Snapshot, builtAt: number): CachedPage {
  const rendered = new Map<string, RenderedForm | Promise<RenderedForm>>();

  function keyOf(name: FormName, basePath: string, options: Record<string, string>): string {
    const form = pageForms[name] as PageForm;
    const path = form.pathIndependent ? '' : basePath;
    const keys = Object.keys(options);
    return keys.length === 0 ? `${name}\u0000${path}` : `${name}\u0000${path}\u0000${JSON.stringify(options)}`;
  }

  function remember(key: string, value: RenderedForm | Promise<RenderedForm>): void {
    if (rendered.has(key) || rendered.size < MAX_VARIANTS_PER_PAGE) rendered.set(key, value);
  }

  /** The bytes now, or the pending rendering of an async form (started here if it was not). */
  function lookup(name: FormName, basePath: string, options: Record<string, string>): RenderedForm | Promise<RenderedForm> {
    const key = keyOf(name, basePath, options);
    const known = rendered.get(key);
    if (known) return known;
    const result = (pageForms[name] as PageForm).render(snapshot, { basePath, options });
    if (!(result instanceof Promise)) {
      const out = withEtag(result);
      remember(key, out);
      return out;
    }
    const pending = result.then(withEtag);
    remember(key, pending);
    pending.then(
      (out) => {
        if (rendered.get(key) === pending) rendered.set(key, out);
      },
      () => {
        // A failed rendering is not kept: the next request tries again.
        if (rendered.get(key) === pending) rendered.delete(key);
      },
    );
    return pending;
  }

  return {
    page,
    snapshot,
    builtAt,
    form(name, basePath, options = {}) {
      const out = lookup(name, basePath, options);
      if (out instanceof Promise) throw new Error(`form ${name} renders asynchronously; use render()`);
      return out;
    },
    ready(name, basePath, options = {}) {
      const out = lookup(name, basePath, options);
      if (!(out instanceof Promise)) return out;
      out.catch(() => {});
      return undefined;
    },
    async render(name, basePath, options = {}) {
      return lookup(name, basePath, options);
    },
  };
}

/** Bytes once, so every response writes the same buffer, and their ETag. */
function withEtag(result: Rendered): RenderedForm {
  const body = typeof result.body === 'string' ? Buffer.from(result.body) : result.body;
  return { contentType: result.contentType, body, etag: etagOf(body) };
}
