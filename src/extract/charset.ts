import chardet from 'chardet';
import iconv from 'iconv-lite';

/**
 * WHATWG label aliases that iconv-lite does not read the way browsers do: Latin-1 and
 * ASCII labels mean windows-1252 on the web (Node 20's TextDecoder gets 0x80-0x9F wrong
 * for it, so iconv-lite decodes it), GB2312 means GBK, and every Shift_JIS label means
 * Microsoft's cp932 variant.
 */
const ALIASES: Record<string, string> = {
  'iso-8859-1': 'windows-1252',
  'iso8859-1': 'windows-1252',
  latin1: 'windows-1252',
  l1: 'windows-1252',
  'us-ascii': 'windows-1252',
  ascii: 'windows-1252',
  'x-cp1252': 'windows-1252',
  cp1252: 'windows-1252',
  gb2312: 'gbk',
  'x-gbk': 'gbk',
  'shift-jis': 'cp932',
  shift_jis: 'cp932',
  sjis: 'cp932',
  'x-sjis': 'cp932',
  ms_kanji: 'cp932',
  'windows-31j': 'cp932',
  utf8: 'utf-8',
  'unicode-1-1-utf-8': 'utf-8',
};

/** Canonical decoder name for a charset label, or null when nothing can decode it. */
export function normalizeCharset(label: string | null | undefined): string | null {
  if (!label) return null;
  const key = label
    .trim()
    .toLowerCase()
    .replace(/^["']|["']$/g, '');
  const name = ALIASES[key] ?? key;
  if (name === 'utf-8' || name === 'utf-16le' || name === 'utf-16be') return name;
  return iconv.encodingExists(name) ? name : null;
}

function bomCharset(body: Uint8Array): { charset: string; length: number } | null {
  if (body[0] === 0xef && body[1] === 0xbb && body[2] === 0xbf) return { charset: 'utf-8', length: 3 };
  if (body[0] === 0xfe && body[1] === 0xff) return { charset: 'utf-16be', length: 2 };
  if (body[0] === 0xff && body[1] === 0xfe) return { charset: 'utf-16le', length: 2 };
  return null;
}

// `\s*(?:["']\s*)?` rather than `\s*["']?\s*`: two adjacent `\s*` split a run of spaces every way (quadratic).
const META_CHARSET = /<meta[^>]+?charset\s*=\s*(?:["']\s*)?([\w.:-]+)/i;
const XML_ENCODING = /^\s*<\?xml[^>]+encoding\s*=\s*["']([\w.:-]+)["']/;
const PRESCAN_BYTES = 8192;

/**
 * Charset declared inside the document: `<meta charset>`, `<meta http-equiv
 * content="…charset=…">` or the XML declaration, read from the first bytes as Latin-1.
 * A UTF-16 declaration inside bytes that are readable as ASCII is a lie (HTML spec): UTF-8.
 */
export function declaredCharset(body: Uint8Array): string | null {
  const head = Buffer.from(body.buffer, body.byteOffset, Math.min(body.length, PRESCAN_BYTES)).toString('latin1');
  const label = XML_ENCODING.exec(head)?.[1] ?? META_CHARSET.exec(head)?.[1];
  const name = normalizeCharset(label);
  return name?.startsWith('utf-16') ? 'utf-8' : name;
}

/**
 * Valid UTF-8, allowing a sequence cut at the end (bodies may be cut at the byte cap):
 * in stream mode a fatal decoder only throws on invalid bytes, not on an unfinished tail.
 * A fresh decoder each time, since a streaming one keeps that tail as state.
 */
export function isUtf8(body: Uint8Array): boolean {
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(body, { stream: true });
    return true;
  } catch {
    return false;
  }
}

const SNIFF_BYTES = 65536;

/** Guesses the charset of undeclared bytes: UTF-8 when valid, otherwise chardet's best guess. */
export function sniffCharset(body: Uint8Array): string {
  if (isUtf8(body)) return 'utf-8';
  const guess = chardet.detect(body.subarray(0, SNIFF_BYTES));
  return normalizeCharset(guess) ?? 'windows-1252';
}

export function decodeWith(body: Uint8Array, charset: string): string {
  if (charset === 'utf-8' || charset === 'utf-16le' || charset === 'utf-16be') {
    return new TextDecoder(charset).decode(body);
  }
  return iconv.decode(Buffer.from(body.buffer, body.byteOffset, body.byteLength), charset);
}

/**
 * Decodes a body. Order: byte-order mark (it is unambiguous, as in the WHATWG encoding
 * sniffing algorithm), the Content-Type charset, the document's own declaration (HTML and
 * XML only), then sniffing.
 */
export function decodeBody(body: Uint8Array, headerCharset: string | null, markup: boolean): string {
  const bom = bomCharset(body);
  if (bom !== null) return decodeWith(body.subarray(bom.length), bom.charset);
  const charset = normalizeCharset(headerCharset) ?? (markup ? declaredCharset(body) : null) ?? sniffCharset(body);
  return decodeWith(body, charset);
}
