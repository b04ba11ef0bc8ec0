import { displayDomain } from '../domain/domains.ts';
import type { CampaignRecord } from '../store/ports.ts';
import { phraseAt, toPhrase, type Phrase } from './text-match.ts';

/** A live campaign prepared for matching: phrases tokenized once, landing domain known. */
export interface CompiledCampaign {
  record: CampaignRecord;
  keywords: Phrase[];
  negatives: Phrase[];
  /** Empty: shown for every country and for requests without one. */
  countries: ReadonlySet<string>;
  landingDomain: string;
}

export function compileCampaign(record: CampaignRecord): CompiledCampaign {
  return {
    record,
    keywords: record.keywords.map(toPhrase).filter((p) => p.words.length > 0),
    negatives: record.negativeKeywords.map(toPhrase).filter((p) => p.words.length > 0),
    countries: new Set(record.countries),
    landingDomain: displayDomain(record.url),
  };
}

interface Entry {
  campaign: CompiledCampaign;
  phrase: Phrase;
}

export interface KeywordMatch {
  campaign: CompiledCampaign;
  /** Query word indexes covered by the campaign's matching keywords. */
  covered: Set<number>;
}

export interface KeywordIndex {
  readonly size: number;
  /** Campaigns with at least one keyword occurring in the query (given as word forms). */
  match(query: readonly string[][]): KeywordMatch[];
}

/**
 * Inverted index from a keyword's first word (each of its plural forms) to the keywords that
 * start with it. A query visits only the keywords that start with one of its words, so the
 * cost follows the query's length and the few candidates, not the number of campaigns.
 */
export function buildKeywordIndex(campaigns: readonly CompiledCampaign[]): KeywordIndex {
  const byFirstWord = new Map<string, Entry[]>();
  for (const campaign of campaigns) {
    for (const phrase of campaign.keywords) {
      for (const form of phrase.words[0] ?? []) {
        const list = byFirstWord.get(form);
        if (list) list.push({ campaign, phrase });
        else byFirstWord.set(form, [{ campaign, phrase }]);
      }
    }
  }
  return {
    size: campaigns.length,
    match(query) {
      const found = new Map<CompiledCampaign, Set<number>>();
      let tried: Set<Entry> | undefined;
      for (let at = 0; at < query.length; at++) {
        const forms = query[at] as string[];
        // One entry is listed under each form of its first word: only a query word with
        // several forms can reach the same entry twice.
        const several = forms.length > 1;
        if (several) (tried ??= new Set()).clear();
        for (const form of forms) {
          const list = byFirstWord.get(form);
          if (list === undefined) continue;
          for (const entry of list) {
            if (several) {
              if (tried!.has(entry)) continue;
              tried!.add(entry);
            }
            const n = entry.phrase.words.length;
            // A one-word keyword met this word through `form` already.
            if (n > 1 && !phraseAt(entry.phrase, query, at)) continue;
            let covered = found.get(entry.campaign);
            if (!covered) found.set(entry.campaign, (covered = new Set()));
            for (let i = 0; i < n; i++) covered.add(at + i);
          }
        }
      }
      return [...found].map(([campaign, covered]) => ({ campaign, covered }));
    },
  };
}
