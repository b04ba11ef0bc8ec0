import { DomainError } from '../domain/errors.ts';
import { decodeBody, declaredCharset, decodeWith, sniffCharset } from './charset.ts';
import { feedToMarkdown } from './feed-to-markdown.ts';
import { ALL_RULES, type ExtractRules } from './html/extract-rules.ts';
import { htmlToDocument } from './html/html-document.ts';
import { type Kind, kindOf, parseContentType } from './media-type.ts';
import type { PageFacts } from './page-facts.ts';
import { pdfToMarkdown } from './pdf-to-markdown.ts';
import { looksLikeText, sniffMediaType, xmlRootType } from './sniff.ts';
import { fenced, jsonToMarkdown, markdownTitle, normalizeNewlines } from './text-to-markdown.ts';

export interface ExtractInput {
  /** Bytes as read (already decompressed, possibly cut at the byte cap). */
  body: Uint8Array;
  /** The origin's Content-Type header value, parameters included, or null when absent. */
  contentType: string | null;
  /** Final URL after redirects: base for absolute links. */
  url: string;
  /**
   * Also read the page's facts (links, description, language: page-facts.ts) into
   * `facts`. Read by the extraction task (src/fetch/extract-task.ts), in the worker, so the
   * page is parsed there and never on the main thread; extractDocument ignores it.
   */
  facts?: boolean;
}

export interface ExtractedDocument {
  title: string;
  markdown: string;
  /** Media type without parameters (sniffed when the origin sent none), or null. */
  contentType: string | null;
  /**
   * True when extraction read only part of the body: the markup, PDF pages or PDF streams,
   * or feed items past the input bounds (markup-bounds.ts, pdf-bounds.ts, feed-to-markdown.ts)
   * that keep extraction of any page well inside the fetch deadline. Absent otherwise.
   */
  truncated?: boolean;
  /** The page's facts, when the input asked for them. */
  facts?: PageFacts;
}

const SUPPORTED = 'HTML, XHTML, plain text, markdown, JSON, RSS/Atom feeds and PDF';

export function unsupported(mediaType: string): DomainError {
  return new DomainError(
    'unsupported_media',
    `the URL returned ${mediaType}, which has no text to extract; fetch supports ${SUPPORTED}`,
  );
}

export const GENERIC_BINARY = new Set(['application/octet-stream', 'binary/octet-stream', 'application/binary']);

/** Bytes to text for sniffing: declared or sniffed charset, no BOM handling needed. */
const sniffDecode = (bytes: Uint8Array): string => decodeWith(bytes, declaredCharset(bytes) ?? sniffCharset(bytes));

/** The handler for a body: from the declared type, else from the bytes. */
function resolveKind(declared: string | null, body: Uint8Array): { kind: Kind; mediaType: string } {
  if (declared !== null) {
    // Object stores often label every file application/octet-stream: a PDF is still a PDF.
    if (GENERIC_BINARY.has(declared) && sniffMediaType(body.subarray(0, 8), sniffDecode) === 'application/pdf') {
      return { kind: 'pdf', mediaType: declared };
    }
    const kind = kindOf(declared);
    if (kind !== null) return { kind, mediaType: declared };
    // Unknown vendor types (application/javascript, application/x-yaml): text when the bytes are.
    return { kind: looksLikeText(body) ? 'text' : 'unsupported', mediaType: declared };
  }
  const sniffed = sniffMediaType(body, sniffDecode);
  return { kind: kindOf(sniffed) ?? 'unsupported', mediaType: sniffed };
}

/**
 * Turns a fetched body into markdown: HTML and XHTML through main-content extraction,
 * text and markdown as they are, JSON pretty-printed in a fence, feeds as a list of items,
 * PDF as its text. Images, audio, video, archives and other binary types throw
 * DomainError('unsupported_media'). A body without Content-Type is sniffed.
 */
export function extractDocument(input: ExtractInput): Promise<ExtractedDocument> {
  return extractDocumentWith(input, ALL_RULES);
}

/** extractDocument with some heuristics off: the extraction benchmark's ablation (html/extract-rules.ts). */
export async function extractDocumentWith(input: ExtractInput, rules: ExtractRules): Promise<ExtractedDocument> {
  const declared = parseContentType(input.contentType);
  const { kind, mediaType } = resolveKind(declared?.mediaType ?? null, input.body);
  const charset = declared?.charset ?? null;
  const text = (markup: boolean): string => decodeBody(input.body, charset, markup);
  const done = (title: string, markdown: string, truncated = false): ExtractedDocument =>
    truncated ? { title, markdown, contentType: mediaType, truncated } : { title, markdown, contentType: mediaType };
  switch (kind) {
    case 'html': {
      const html = htmlToDocument(text(true), input.url, rules);
      return done(html.title, html.markdown, html.truncated);
    }
    case 'markdown': {
      const md = normalizeNewlines(text(false));
      return done(markdownTitle(md), md);
    }
    case 'text':
      return done('', normalizeNewlines(text(false)));
    case 'json':
      return done('', jsonToMarkdown(text(false).trim()));
    case 'feed':
    case 'xml': {
      const xml = text(true);
      const root = xmlRootType(xml.replace(/^\uFEFF/, ''));
      if (root === 'application/xhtml+xml') {
        const html = htmlToDocument(xml, input.url, rules);
        return done(html.title, html.markdown, html.truncated);
      }
      if (kind === 'feed' || root !== 'application/xml') {
        const feed = feedToMarkdown(xml, input.url);
        return done(feed.title, feed.markdown, feed.truncated);
      }
      return done('', fenced(normalizeNewlines(xml).trim(), 'xml'));
    }
    case 'pdf': {
      const pdf = await pdfToMarkdown(input.body);
      return done(pdf.title, pdf.markdown, pdf.truncated);
    }
    default:
      throw unsupported(mediaType);
  }
}
