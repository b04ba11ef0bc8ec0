import { must } from '../domain/must.ts';
export interface ContentType {
  /** Lower-case `type/subtype`, parameters removed. */
  mediaType: string;
  /** The `charset` parameter, lower-case, or null. */
  charset: string | null;
}

/** Parses a Content-Type header; null when absent or without a `type/subtype`. */
export function parseContentType(header: string | null): ContentType | null {
  if (header === null) return null;
  const [head, ...params] = header.split(';');
  const mediaType = must(head, 'the first piece of a split').trim().toLowerCase();
  if (!/^[\w.+-]+\/[\w.+-]+$/.test(mediaType)) return null;
  let charset: string | null = null;
  for (const p of params) {
    const m = /^\s*charset\s*=\s*"?([^";\s]+)"?\s*$/i.exec(p);
    if (m) charset = must(m[1], 'the value of a charset parameter').toLowerCase();
  }
  return { mediaType, charset };
}

export type Kind = 'html' | 'text' | 'markdown' | 'json' | 'feed' | 'xml' | 'pdf' | 'unsupported';

const KIND_BY_TYPE: Record<string, Kind> = {
  'text/html': 'html',
  'application/xhtml+xml': 'html',
  'text/plain': 'text',
  'text/markdown': 'markdown',
  'text/x-markdown': 'markdown',
  'application/json': 'json',
  'text/json': 'json',
  'application/rss+xml': 'feed',
  'application/atom+xml': 'feed',
  'application/rdf+xml': 'feed',
  'application/xml': 'xml',
  'text/xml': 'xml',
  'application/pdf': 'pdf',
  'application/x-pdf': 'pdf',
};

/** Families that are never text: 415 without looking at the bytes. */
const BINARY_PREFIXES = ['image/', 'audio/', 'video/', 'font/', 'model/'];
const BINARY_TYPES = new Set([
  'application/octet-stream',
  'application/zip',
  'application/gzip',
  'application/x-gzip',
  'application/x-tar',
  'application/x-7z-compressed',
  'application/x-rar-compressed',
  'application/vnd.rar',
  'application/x-bzip2',
  'application/x-xz',
  'application/zstd',
  'application/java-archive',
  'application/x-msdownload',
  'application/vnd.android.package-archive',
  'application/wasm',
  'application/x-shockwave-flash',
  'application/ogg',
  'application/msword',
  'application/vnd.ms-excel',
]);

/**
 * How a declared media type is handled. `null` means "look at the bytes": a type that
 * is neither known text nor known binary (application/javascript, text/csv, vendor types)
 * is served as text when its bytes are text.
 */
export function kindOf(mediaType: string): Kind | null {
  const known = KIND_BY_TYPE[mediaType];
  if (known !== undefined) return known;
  if (mediaType.endsWith('+json')) return 'json';
  if (mediaType.endsWith('+xml')) return 'xml';
  if (BINARY_TYPES.has(mediaType) || BINARY_PREFIXES.some((p) => mediaType.startsWith(p))) return 'unsupported';
  if (mediaType.startsWith('application/vnd.openxmlformats') || mediaType.startsWith('application/vnd.oasis')) {
    return 'unsupported';
  }
  if (mediaType.startsWith('text/')) return 'text';
  return null;
}
