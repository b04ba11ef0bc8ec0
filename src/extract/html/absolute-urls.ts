/** Resolves `href` against `base`; null for unparseable values and script URLs. */
export function resolveUrl(href: string, base: string): string | null {
  const trimmed = href.trim();
  if (trimmed === '' || /^(?:javascript|vbscript|data):/i.test(trimmed)) return null;
  try {
    return new URL(trimmed, base).href;
  } catch {
    return null;
  }
}

/** The document's base for relative links: `<base href>` resolved against the page URL. */
export function documentBase(doc: Document, pageUrl: string): string {
  const href = doc.querySelector('base[href]')?.getAttribute('href');
  return (href && resolveUrl(href, pageUrl)) || pageUrl;
}

const LAZY_SRC = ['data-src', 'data-lazy-src', 'data-original', 'data-url'];

/**
 * Makes link targets and image sources absolute. linkedom documents have no base URL,
 * so Readability's own `_fixRelativeURIs` leaves them relative. Script links lose their
 * href (the text stays); lazy images without a real `src` take it from `data-src`.
 */
export function absolutizeUrls(root: Element, base: string): void {
  for (const a of Array.from(root.getElementsByTagName('a'))) {
    const href = a.getAttribute('href');
    if (href === null) continue;
    const abs = resolveUrl(href, base);
    if (abs === null) a.removeAttribute('href');
    else a.setAttribute('href', abs);
  }
  for (const img of Array.from(root.getElementsByTagName('img'))) {
    let src = img.getAttribute('src') ?? '';
    if (src === '' || src.startsWith('data:')) {
      const lazy = LAZY_SRC.map((name) => img.getAttribute(name)).find((v) => v);
      if (lazy) src = lazy;
    }
    const abs = src.startsWith('data:') ? src : resolveUrl(src, base);
    if (abs === null) img.removeAttribute('src');
    else img.setAttribute('src', abs);
  }
}
