import type { Config, DOMPurify } from 'dompurify';
import type { JSDOM } from 'jsdom';

const SVG_NAMESPACE = 'http://www.w3.org/2000/svg';

/**
 * DOMPurify on a jsdom window, made at the first SVG logo (loading jsdom takes seconds, which a start need not wait
 * for): the window only lends its DOM (parser, serializer, node classes) to the sanitiser and never loads or runs
 * anything.
 */
let sanitiser: { window: JSDOM['window']; purify: DOMPurify } | undefined;

function sanitiserOf(): { window: JSDOM['window']; purify: DOMPurify } {
  if (!sanitiser) {
    /* eslint-disable @typescript-eslint/no-require-imports */
    const { JSDOM: Dom } = require('jsdom') as { JSDOM: typeof JSDOM };
    const createDOMPurify = require('dompurify') as DOMPurify;
    /* eslint-enable @typescript-eslint/no-require-imports */
    const { window } = new Dom('');
    sanitiser = { window, purify: createDOMPurify(window as unknown as Parameters<typeof createDOMPurify>[0]) };
  }
  return sanitiser;
}

/**
 * DOMPurify's SVG profile (shapes, gradients, filters, text), without style sheets (an `@import` or a `url()` there
 * loads from elsewhere) and dropping what it removes with its content. Scripts, event handlers, `<set>`/`<animate>`,
 * `<foreignObject>` and any HTML, and links other than safe URLs go, whatever prefix or character references they
 * hide behind, since they are judged on the parsed document.
 */
const PROFILE: Config = { IN_PLACE: true, USE_PROFILES: { svg: true, svgFilters: true }, FORBID_TAGS: ['style'], KEEP_CONTENT: false };

/**
 * The SVG as a well-formed XML document of its root `<svg>` element alone (no prolog, no DTD), with everything that
 * could run, load or link out removed; null when the text is not an XML document whose root is an SVG element.
 * Parsed as XML, as a browser parses an image/svg+xml file, and serialised back as XML, so what is served is the
 * tree that was checked.
 */
export function sanitiseSvg(text: string): string | null {
  const { window, purify } = sanitiserOf();
  const document = new window.DOMParser().parseFromString(text.replace(/^\uFEFF/, ''), 'image/svg+xml');
  const root = document.documentElement;
  if (!root || root.namespaceURI !== SVG_NAMESPACE || root.localName !== 'svg') return null;
  try {
    purify.sanitize(root, PROFILE);
  } catch {
    // DOMPurify refuses to clean in place a root it would remove.
    return null;
  }
  return new window.XMLSerializer().serializeToString(root);
}
