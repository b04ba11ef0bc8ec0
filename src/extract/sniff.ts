/**
 * Media type of a body sent without Content-Type (or with one that needs a look): magic
 * bytes for binary formats, markup for HTML and XML feeds, JSON by parsing, text when the
 * bytes decode as text. Follows the shape of the WHATWG MIME sniffing algorithm.
 */
import { skipSpace } from './text-scan.ts';

const MAGIC: [string, number[]][] = [
  ['application/pdf', [0x25, 0x50, 0x44, 0x46, 0x2d]], // %PDF-
  ['image/png', [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]],
  ['image/jpeg', [0xff, 0xd8, 0xff]],
  ['image/gif', [0x47, 0x49, 0x46, 0x38]], // GIF8
  ['image/bmp', [0x42, 0x4d]],
  ['image/x-icon', [0x00, 0x00, 0x01, 0x00]],
  ['application/zip', [0x50, 0x4b, 0x03, 0x04]],
  ['application/gzip', [0x1f, 0x8b, 0x08]],
  ['application/x-7z-compressed', [0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c]],
  ['application/vnd.rar', [0x52, 0x61, 0x72, 0x21, 0x1a, 0x07]],
  ['application/x-bzip2', [0x42, 0x5a, 0x68]],
  ['application/x-xz', [0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00]],
  ['audio/mpeg', [0x49, 0x44, 0x33]], // ID3
  ['audio/ogg', [0x4f, 0x67, 0x67, 0x53]], // OggS
  ['audio/flac', [0x66, 0x4c, 0x61, 0x43]],
  ['video/webm', [0x1a, 0x45, 0xdf, 0xa3]],
  ['application/wasm', [0x00, 0x61, 0x73, 0x6d]],
];

function startsWith(body: Uint8Array, sig: number[], at = 0): boolean {
  if (body.length < at + sig.length) return false;
  return sig.every((b, i) => body[at + i] === b);
}

const ascii = (s: string): number[] => Array.from(s, (c) => c.charCodeAt(0));

function binaryType(body: Uint8Array): string | null {
  for (const [type, sig] of MAGIC) if (startsWith(body, sig)) return type;
  if (startsWith(body, ascii('RIFF')) && startsWith(body, ascii('WEBP'), 8)) return 'image/webp';
  if (startsWith(body, ascii('RIFF')) && startsWith(body, ascii('WAVE'), 8)) return 'audio/wav';
  if (startsWith(body, ascii('RIFF')) && startsWith(body, ascii('AVI '), 8)) return 'video/x-msvideo';
  if (startsWith(body, ascii('ftyp'), 4)) return 'video/mp4';
  return null;
}

const HTML_TAG =
  /^<(?:!doctype\s+html|html|head|body|script|iframe|h1|div|font|table|a|style|title|b|br|p|meta|link)[\s>/]/i;
const XML_START = /^<\?xml[\s\S]*?\?>/;
const ROOT_NAME = /^<([\w:.-]+)/;

/** What comes before the first element: comments always, processing instructions and DOCTYPE when asked. */
interface Prolog {
  pi: boolean;
  doctype: boolean;
}

function prologItem(text: string, i: number, prolog: Prolog): { from: number; close: string } | null {
  if (text.startsWith('<!--', i)) return { from: i + 4, close: '-->' };
  if (prolog.pi && text.startsWith('<?', i)) return { from: i + 2, close: '?>' };
  if (prolog.doctype && text.startsWith('<!DOCTYPE', i)) return { from: i + 9, close: '>' };
  return null;
}

/**
 * Index of the first markup after whitespace and prolog items, or -1 when one is not closed.
 * A scan with indexOf rather than a regex: `(?:<!--[\s\S]*?-->\s*)*` lets a lazy comment
 * swallow the next ones, which is exponential on a body of a few dozen empty comments. An
 * item ends at its first closing delimiter, as the HTML tokenizer ends a comment.
 */
function prologEnd(text: string, prolog: Prolog): number {
  let i = skipSpace(text, 0);
  for (let item = prologItem(text, i, prolog); item !== null; item = prologItem(text, i, prolog)) {
    const end = text.indexOf(item.close, item.from);
    if (end < 0) return -1;
    i = skipSpace(text, end + item.close.length);
  }
  return i;
}

function looksLikeHtml(head: string): boolean {
  const start = prologEnd(head, { pi: false, doctype: false });
  return start >= 0 && HTML_TAG.test(head.slice(start));
}

/** Media type implied by the root element of an XML document. */
export function xmlRootType(text: string): string {
  const start = prologEnd(text, { pi: true, doctype: true });
  const root = start < 0 ? undefined : ROOT_NAME.exec(text.slice(start))?.[1]?.toLowerCase();
  if (root === 'rss') return 'application/rss+xml';
  if (root === 'feed') return 'application/atom+xml';
  if (root === 'rdf:rdf') return 'application/rdf+xml';
  if (root === 'html') return 'application/xhtml+xml';
  return 'application/xml';
}

/** True when the bytes have no NUL and no C0 controls beyond tab, newlines and form feed. */
export function looksLikeText(body: Uint8Array, limit = 8192): boolean {
  for (const b of body.subarray(0, limit)) {
    if (b < 0x20 && b !== 0x09 && b !== 0x0a && b !== 0x0d && b !== 0x0c && b !== 0x1b) return false;
  }
  return true;
}

/** Sniffs a media type from the first bytes; `decode` turns bytes into text for the markup and JSON checks. */
export function sniffMediaType(body: Uint8Array, decode: (bytes: Uint8Array) => string): string {
  const binary = binaryType(body);
  if (binary !== null) return binary;
  const utf16 = (body[0] === 0xfe && body[1] === 0xff) || (body[0] === 0xff && body[1] === 0xfe);
  if (!utf16 && !looksLikeText(body)) return 'application/octet-stream';
  const head = decode(body.subarray(0, 4096))
    .replace(/^\uFEFF/, '')
    .trimStart();
  if (XML_START.test(head)) return xmlRootType(head);
  if (looksLikeHtml(head)) return 'text/html';
  if (/^<(?:rss|feed|rdf:RDF)[\s>]/i.test(head)) return xmlRootType(head);
  if (/^[[{]/.test(head)) {
    try {
      JSON.parse(decode(body));
      return 'application/json';
    } catch {
      // Not JSON after all: plain text.
    }
  }
  return 'text/plain';
}
