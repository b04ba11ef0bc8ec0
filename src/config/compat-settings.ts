import { bool, type Parser } from './parsers.ts';
import { s } from './setting.ts';

/**
 * The API shapes Scout serves beside /v1 for apps that already call another search API
 * (docs/compat.md). Listed here, below every room, so a setting can name them.
 */
export const COMPAT_SHAPES = ['searxng', 'tavily', 'firecrawl'] as const;
export type CompatShape = (typeof COMPAT_SHAPES)[number];

/** SCOUT_COMPAT_SPONSORED: shape names, comma-separated, or `none` (an empty value means the default). */
const shapeList: Parser<CompatShape[]> = (raw) => {
  const names = raw
    .split(',')
    .map((n) => n.trim().toLowerCase())
    .filter((n) => n !== '');
  if (names.length === 1 && names[0] === 'none') return [];
  for (const n of names) {
    if (!(COMPAT_SHAPES as readonly string[]).includes(n))
      throw new Error(`must list shapes among ${COMPAT_SHAPES.join(', ')}, or be none; got "${n}"`);
  }
  return [...new Set(names)] as CompatShape[];
};

/** The compat shapes (docs/compat.md), spread into the main table by settings.ts. */
export const compatSettings = {
  compatSponsored: s(
    'SCOUT_COMPAT_SPONSORED',
    shapeList,
    COMPAT_SHAPES.join(','),
    'Compat shapes (searxng, tavily, firecrawl) whose search answers carry sponsored entries, each labelled in its title and text since those shapes have no label field (docs/compat.md); `none` for none. A shape left out shows organic results only and records no impression.',
  ),
  pathKeys: s(
    'SCOUT_PATH_KEYS',
    bool,
    'false',
    'Also serve the compat routes under /k/<key>/… (e.g. /k/<key>/search) for clients that can only hold a URL. The key is never logged, but URLs end up in proxy logs and browser history: see docs/compat.md.',
  ),
} as const;
