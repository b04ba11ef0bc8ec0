/**
 * Tavily takes a country as a lowercase English name ("united states"); Scout takes an ISO
 * 3166-1 alpha-2 code. The names come from the runtime's own region names (ICU), so no list
 * is kept here; the aliases are the names Tavily uses where ICU's differ.
 */
const ALIASES: Record<string, string> = {
  'czech republic': 'CZ',
  'ivory coast': 'CI',
  'south korea': 'KR',
  'north korea': 'KP',
  'democratic republic of the congo': 'CD',
  'republic of the congo': 'CG',
  'united states of america': 'US',
  usa: 'US',
  uk: 'GB',
  'great britain': 'GB',
  russia: 'RU',
  'vatican city': 'VA',
  turkey: 'TR',
  burma: 'MM',
  swaziland: 'SZ',
  macedonia: 'MK',
  'cape verde': 'CV',
};

let byName: Map<string, string> | undefined;

function names(): Map<string, string> {
  if (byName) return byName;
  const display = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'none' });
  const map = new Map<string, string>(Object.entries(ALIASES));
  for (let a = 65; a <= 90; a++) {
    for (let b = 65; b <= 90; b++) {
      const code = String.fromCharCode(a, b);
      // Withdrawn codes (DD, SU, …) are named after their successors: the current code keeps the name.
      if (Intl.getCanonicalLocales(`und-${code}`)[0] !== `und-${code}`) continue;
      const name = display.of(code);
      if (name !== undefined && !map.has(name.toLowerCase())) map.set(name.toLowerCase(), code);
    }
  }
  byName = map;
  return map;
}

/** "united kingdom", "United Kingdom", "gb" or "GB" → "GB"; undefined when none matches. */
export function countryCode(raw: string): string | undefined {
  const v = raw.trim().toLowerCase().replace(/\s+/g, ' ');
  if (/^[a-z]{2}$/.test(v)) return v.toUpperCase();
  return names().get(v);
}
