// One snapshot version of a page with its forms, each rendered once per option set and kept (within the byte budget) until the next version.
import { etagOf } from '../../domain/etag.js';
import { DEFAULT_LANGUAGE, type PageLanguage } from '../../domain/languages.js';
import type { Page } from '../../domain/page.js';
import type { Snapshot } from '../../domain/snapshot.js';
import {
  type FormImages,
  type FormName,
  type PageForm,
  pageForms,
  type Rendered,
  type SyncFormName,
} from '../../render/forms.js';
import { compressedVariants, type EncodedVariants } from './compressed-variants.js';
import { createRenderBudget, type KeptRendering, type PageRenderings } from './render-budget.js';

/**
 * Distinct renderings (option sets such as badge styles, times the 8 languages of the localized forms) kept per page:
 * their keys cost memory too. Their bytes are bounded by the shared render budget (render-budget.ts).
 */
const MAX_VARIANTS_PER_PAGE = 256;

export interface RenderedForm extends Rendered {
  etag: string;
  /** The language of a localized form's bytes (its Content-Language); absent for the others. */
  language?: PageLanguage;
  /** The same bytes in Brotli and gzip, each with its own ETag; none for images and bodies under 1 KB. */
  encoded: EncodedVariants;
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
  /**
   * A form that renders synchronously, rendered now if it was not yet. `language`: the reader's, for a localized form
   * (the page's own, else English, when left out); the other forms ignore it.
   */
  form(name: SyncFormName, basePath: string, options?: Record<string, string>, language?: PageLanguage): RenderedForm;
  /** The form's bytes if they are ready without waiting (rendering sync forms now, starting async ones); else undefined. */
  ready(
    name: FormName,
    basePath: string,
    options?: Record<string, string>,
    language?: PageLanguage,
  ): RenderedForm | undefined;
  /** The form's bytes, rendering them if needed. */
  render(
    name: FormName,
    basePath: string,
    options?: Record<string, string>,
    language?: PageLanguage,
  ): Promise<RenderedForm>;
  /**
   * This version is replaced or evicted: its renderings leave the byte budget and are forgotten. A request still
   * holding it is served (what it renders then is not kept).
   */
  release(): void;
}

/** A rendering kept, with its place in the byte budget (a read stamps it). */
interface Kept {
  form: RenderedForm;
  kept: KeptRendering;
}

/**
 * `images`: the uploaded images a form draws itself (og.png's logo), read with the snapshot. `renderings`: this
 * version's account in the shared byte budget (the page cache's); a budget of its own when left out.
 */
export function withForms(
  page: Page,
  snapshot: Snapshot,
  builtAt: number,
  images: FormImages = {},
  renderings: PageRenderings = createRenderBudget().page(),
): CachedPage {
  const rendered = new Map<string, Kept | Promise<RenderedForm>>();

  function keyOf(
    name: FormName,
    basePath: string,
    options: Record<string, string>,
    language: PageLanguage | undefined,
  ): string {
    const form = pageForms[name] as PageForm;
    const path = form.pathIndependent ? '' : basePath;
    const keys = Object.keys(options);
    const key = keys.length === 0 ? `${name}\u0000${path}` : `${name}\u0000${path}\u0000${JSON.stringify(options)}`;
    return language === undefined ? key : `${key}\u0000${language}`;
  }

  function remember(key: string, value: Kept | Promise<RenderedForm>): void {
    if (rendered.has(key) || rendered.size < MAX_VARIANTS_PER_PAGE) rendered.set(key, value);
  }

  /**
   * The rendering made ready to serve, kept if the budget takes it (its variants are counted when they are made). When
   * the budget later drops it, the next read renders it again: the same bytes and ETag, a pure function of the snapshot.
   */
  function finish(key: string, result: Rendered, language: PageLanguage | undefined): RenderedForm {
    let entry: Kept | undefined;
    const form = withEtag(result, language, (bytes) => entry?.kept.grow(bytes));
    if (rendered.size >= MAX_VARIANTS_PER_PAGE && !rendered.has(key)) return form;
    const kept = renderings.keep(Buffer.byteLength(form.body), () => {
      if (entry !== undefined && rendered.get(key) === entry) rendered.delete(key);
    });
    if (!kept) {
      // Not kept (larger than a page's share, or this version released): a pending rendering's slot is freed.
      if (rendered.get(key) instanceof Promise) rendered.delete(key);
      return form;
    }
    entry = { form, kept };
    rendered.set(key, entry);
    return form;
  }

  /** The bytes now, or the pending rendering of an async form (started here if it was not). */
  function lookup(
    name: FormName,
    basePath: string,
    asked: Record<string, string>,
    reader: PageLanguage | undefined,
  ): RenderedForm | Promise<RenderedForm> {
    const form = pageForms[name] as PageForm;
    // Aliases (an embed's component by name or by id) share one rendering, and one slot of the cap.
    const canonical = form.canonical;
    const options = canonical && Object.keys(asked).length > 0 ? canonical(snapshot, asked) : asked;
    // Only a localized form's bytes differ by language: the others are one rendering for every reader.
    const language = form.localized ? (reader ?? snapshot.page.language ?? DEFAULT_LANGUAGE) : undefined;
    const key = keyOf(name, basePath, options, language);
    const known = rendered.get(key);
    if (known) {
      if (known instanceof Promise) return known;
      // The hot path's only bookkeeping: one integer stored for recency.
      known.kept.read();
      return known.form;
    }
    const result = form.render(snapshot, { basePath, options, images, ...(language ? { language } : {}) });
    if (!(result instanceof Promise)) return finish(key, result, language);
    const pending: Promise<RenderedForm> = result.then((out) =>
      rendered.get(key) === pending ? finish(key, out, language) : withEtag(out, language),
    );
    remember(key, pending);
    pending.catch(() => {
      // A failed rendering is not kept: the next request tries again.
      if (rendered.get(key) === pending) rendered.delete(key);
    });
    return pending;
  }

  return {
    page,
    snapshot,
    builtAt,
    form(name, basePath, options = {}, language = undefined) {
      const out = lookup(name, basePath, options, language);
      if (out instanceof Promise) throw new Error(`form ${name} renders asynchronously; use render()`);
      return out;
    },
    ready(name, basePath, options = {}, language = undefined) {
      const out = lookup(name, basePath, options, language);
      if (!(out instanceof Promise)) return out;
      out.catch(() => {});
      return undefined;
    },
    async render(name, basePath, options = {}, language = undefined) {
      return lookup(name, basePath, options, language);
    },
    release() {
      renderings.release();
      rendered.clear();
    },
  };
}

/** Bytes once, so every response writes the same buffer, their ETag, and their compressed variants. */
function withEtag(result: Rendered, language: PageLanguage | undefined, made?: (bytes: number) => void): RenderedForm {
  const body = typeof result.body === 'string' ? Buffer.from(result.body) : result.body;
  const etag = etagOf(body);
  return {
    contentType: result.contentType,
    body,
    etag,
    encoded: compressedVariants(body, result.contentType, etag, made),
    ...(language ? { language } : {}),
    ...(result.contentSecurityPolicy ? { contentSecurityPolicy: result.contentSecurityPolicy } : {}),
    ...(result.status ? { status: result.status } : {}),
  };
}
