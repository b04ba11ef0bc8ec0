import { domainAllowed } from '../../domain/domains.ts';
import type { Filters } from '../search-filters.ts';

/** What a filter reads of a document. */
export interface Filterable {
  domain: string;
  /** UTC day of published_date (YYYY-MM-DD), or null. */
  day: string | null;
  country: string | null;
}

/**
 * The filters of a search as one test of a ranker slot, with LocalIndex's SQL semantics
 * (search-statements.ts): a domain matches itself and its subdomains, exclusion wins;
 * undated documents fail a date filter; documents without a country pass a country filter.
 * Undefined when there is no filter.
 */
export function slotFilter(f: Filters, docOf: (slot: number) => Filterable): ((slot: number) => boolean) | undefined {
  const hasDomains = f.include.length > 0 || f.exclude.length > 0;
  const hasDates = f.start !== undefined || f.end !== undefined;
  const country = f.country;
  if (!hasDomains && !hasDates && country === undefined) return undefined;
  // A search meets few distinct domains among thousands of candidates: decide each once.
  const domainOk = new Map<string, boolean>();
  const start = f.start ?? '';
  const end = f.end ?? '9999-12-31';
  return (s) => {
    const doc = docOf(s);
    if (hasDomains) {
      let ok = domainOk.get(doc.domain);
      if (ok === undefined) domainOk.set(doc.domain, (ok = domainAllowed(doc.domain, f.include, f.exclude)));
      if (!ok) return false;
    }
    if (hasDates && (doc.day === null || doc.day < start || doc.day > end)) return false;
    return country === undefined || doc.country === null || doc.country === country;
  };
}
