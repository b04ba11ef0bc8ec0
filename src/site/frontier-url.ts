import { unwrapUrl } from '../fetch/unwrap.ts';
import { cleanUrl, dedupeKey } from '../domain/url-normalize.ts';

/**
 * Which links a crawl may queue, and in what form. A link is resolved against its page,
 * unwrapped when it is a known redirect wrapper (src/fetch/unwrap.ts: the fetch pipeline
 * would unwrap it anyway, and robots.txt and --same-site must judge the real target), must be http(s) without credentials, loses its fragment and tracking parameters
 * (src/domain/url-normalize.ts cleanUrl) and must not end in an extension that is
 * obviously not a page. Such links are dropped before any request: the fetch pipeline
 * would refuse most of them anyway (415), but only after a request to the origin.
 */

/** Lower-case extensions of files that are never a page to index. PDF is a page: fetch extracts it. */
const NOT_A_PAGE = new Set([
  // images
  'png',
  'jpg',
  'jpeg',
  'gif',
  'webp',
  'avif',
  'svg',
  'ico',
  'bmp',
  'tif',
  'tiff',
  'heic',
  'psd',
  // audio and video
  'mp3',
  'wav',
  'ogg',
  'oga',
  'flac',
  'aac',
  'm4a',
  'mp4',
  'm4v',
  'mov',
  'avi',
  'mkv',
  'webm',
  'wmv',
  'flv',
  'mpg',
  'mpeg',
  // archives, disk images and executables
  'zip',
  'gz',
  'tgz',
  'bz2',
  'xz',
  'zst',
  '7z',
  'rar',
  'tar',
  'jar',
  'war',
  'iso',
  'dmg',
  'img',
  'exe',
  'msi',
  'apk',
  'deb',
  'rpm',
  'bin',
  // fonts, page assets and office files fetch cannot extract
  'woff',
  'woff2',
  'ttf',
  'otf',
  'eot',
  'css',
  'js',
  'mjs',
  'map',
  'wasm',
  'doc',
  'docx',
  'xls',
  'xlsx',
  'ppt',
  'pptx',
  'odt',
  'ods',
  'odp',
]);

export type FrontierUrl = { url: string } | { skip: string };

function extension(pathname: string): string {
  const last = pathname.slice(pathname.lastIndexOf('/') + 1);
  const dot = last.lastIndexOf('.');
  return dot > 0 ? last.slice(dot + 1).toLowerCase() : '';
}

/** The URL to queue for `raw` (resolved against `base` when given), or why it is not queued. */
export function toFrontierUrl(raw: string, base?: string): FrontierUrl {
  let u: URL;
  try {
    u = base === undefined ? new URL(raw.trim()) : new URL(raw.trim(), base);
    // The raw string when it is absolute: Proofpoint v3 hides its target in a path new URL() rewrites.
    const inner = unwrapUrl(/^https?:/i.test(raw.trim()) ? raw.trim() : u.href);
    if (inner.unwrapped) u = new URL(inner.url);
  } catch {
    return { skip: 'not a valid URL' };
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return { skip: `not http(s) (${u.protocol.slice(0, -1)})` };
  if (u.username !== '' || u.password !== '') return { skip: 'URLs with credentials are never crawled' };
  if (NOT_A_PAGE.has(extension(u.pathname))) return { skip: `not a page (.${extension(u.pathname)})` };
  u.hash = '';
  const url = cleanUrl(u.href);
  return url === undefined ? { skip: 'not a valid URL' } : { url };
}

/** Identity for "already seen": scheme, `www.`, trailing slash and parameter order do not matter. */
export const frontierKey = (url: string): string => dedupeKey(url) ?? url;
