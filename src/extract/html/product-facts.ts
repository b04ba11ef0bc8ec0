import { collapseSpace } from '../text-scan.ts';
import { decodeEntities } from './page-signals.ts';

/**
 * A product page's facts as its own structured data states them (schema.org Product in
 * JSON-LD, what shops write for search engines): price and availability, brand, the
 * description and the specification list. A reader of a product page wants these first;
 * the page's layout often hides them in tabs, widgets or scripts the extractor drops.
 */

const LD_SCRIPT =
  /<script\b[^>]{0,200}?type\s*=\s*["']?application\/ld\+json["']?[^>]{0,200}>([\s\S]{0,400000}?)<\/script\s*>/gi;
/** JSON-LD blocks read at most, and characters of one: a page of megabytes of it is not read whole. */
const MAX_BLOCKS = 20;
const MAX_BLOCK_CHARS = 400_000;
/** Specification rows kept at most. */
const MAX_SPECS = 60;

export interface ProductFacts {
  name?: string;
  brand?: string;
  price?: string;
  availability?: string;
  description?: string;
  specs: { name: string; value: string }[];
}

type Json = unknown;
const isObject = (v: Json): v is Record<string, Json> => typeof v === 'object' && v !== null && !Array.isArray(v);
const text = (v: Json): string | undefined => {
  if (typeof v === 'string') {
    const t = collapseSpace(decodeEntities(v.replace(/<[^>]{0,500}>/g, ' ')));
    return t === '' ? undefined : t;
  }
  if (typeof v === 'number') return String(v);
  if (isObject(v)) return text(v.name);
  if (Array.isArray(v)) return text(v[0]);
  return undefined;
};

function isType(v: Record<string, Json>, type: string): boolean {
  const t = v['@type'];
  return t === type || (Array.isArray(t) && t.includes(type));
}

/** The first Product anywhere in `v` (top level, @graph, nested), depth-bounded. */
function findProduct(v: Json, depth = 0): Record<string, Json> | undefined {
  if (depth > 6) return undefined;
  if (Array.isArray(v)) {
    for (const x of v) {
      const p = findProduct(x, depth + 1);
      if (p !== undefined) return p;
    }
    return undefined;
  }
  if (!isObject(v)) return undefined;
  if (isType(v, 'Product') || isType(v, 'ProductGroup')) return v;
  for (const key of ['@graph', 'mainEntity', 'itemReviewed', 'about']) {
    const p = findProduct(v[key], depth + 1);
    if (p !== undefined) return p;
  }
  return undefined;
}

/** "https://schema.org/InStock" → "In stock". */
function availabilityWords(v: Json): string | undefined {
  const t = text(v);
  if (t === undefined) return undefined;
  const last = t.split('/').pop() ?? t;
  const words = last.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

function priceOf(offers: Json): { price?: string; availability?: string } {
  const offer = Array.isArray(offers) ? offers.find(isObject) : offers;
  if (!isObject(offer)) return {};
  const amount = text(offer.price) ?? text(offer.lowPrice);
  const currency = text(offer.priceCurrency);
  const out: { price?: string; availability?: string } = {};
  if (amount !== undefined) out.price = currency === undefined ? amount : `${amount} ${currency}`;
  const availability = availabilityWords(offer.availability);
  if (availability !== undefined) out.availability = availability;
  return out;
}

/** The page's Product, when its JSON-LD states one with at least a description or a price. */
export function productFacts(rawHtml: string): ProductFacts | undefined {
  const re = new RegExp(LD_SCRIPT.source, LD_SCRIPT.flags);
  let blocks = 0;
  for (let m = re.exec(rawHtml); m !== null && blocks < MAX_BLOCKS; m = re.exec(rawHtml)) {
    blocks += 1;
    const body = m[1] ?? '';
    if (body.length > MAX_BLOCK_CHARS || !/Product/.test(body)) continue;
    let parsed: Json;
    try {
      parsed = JSON.parse(body);
    } catch {
      continue;
    }
    const p = findProduct(parsed);
    if (p === undefined) continue;
    const facts: ProductFacts = { specs: [], ...priceOf(p.offers) };
    const name = text(p.name);
    if (name !== undefined) facts.name = name;
    const brand = text(p.brand);
    if (brand !== undefined) facts.brand = brand;
    const description = text(p.description);
    if (description !== undefined) facts.description = description;
    const props = Array.isArray(p.additionalProperty) ? p.additionalProperty : [];
    for (const prop of props.slice(0, MAX_SPECS)) {
      if (!isObject(prop)) continue;
      const [k, v] = [text(prop.name), text(prop.value)];
      if (k !== undefined && v !== undefined) facts.specs.push({ name: k, value: v });
    }
    if (facts.description !== undefined || facts.price !== undefined) return facts;
  }
  return undefined;
}

const plain = (s: string): string => collapseSpace(s.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ' '));

/**
 * The facts the markdown does not already hold, as markdown to put before it: a line of
 * price, availability and brand, the description, the specifications as a table. Empty
 * when the page's own text says it all.
 */
export function productFactsMarkdown(facts: ProductFacts, markdown: string): string {
  const have = plain(markdown);
  const parts: string[] = [];
  const line = [
    facts.price === undefined ? undefined : `Price: ${facts.price}`,
    facts.availability,
    facts.brand === undefined ? undefined : `Brand: ${facts.brand}`,
  ].filter((s): s is string => s !== undefined);
  if (line.length > 0) parts.push(line.join(' · '));
  const d = facts.description;
  // The description's start (its first 80 letters and digits) found in the page: it is there.
  if (d !== undefined && !have.includes(plain(d).slice(0, 80))) parts.push(d);
  const specs = facts.specs.filter((s) => !have.includes(plain(`${s.name} ${s.value}`)));
  if (specs.length > 0) {
    const cell = (s: string) => s.replace(/\|/g, '\\|');
    parts.push(
      [
        '| Specification | Value |',
        '| --- | --- |',
        ...specs.map((s) => `| ${cell(s.name)} | ${cell(s.value)} |`),
      ].join('\n'),
    );
  }
  return parts.join('\n\n');
}
