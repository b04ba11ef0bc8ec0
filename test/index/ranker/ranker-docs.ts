import { corpusLines } from '../../../bench/make-corpus.ts';
import type { RankerDocument } from '../../../src/store/index-rows.ts';

/** `n` generated documents (bench/make-corpus.ts) as a ranker takes them, ids 1..n. */
export const rankerDocs = (n: number, seed: number): RankerDocument[] =>
  [...corpusLines({ docs: n, seed })].map((l, i) => {
    const d = JSON.parse(l) as {
      url: string;
      title: string;
      content: string;
      country?: string;
      published_date?: string;
    };
    return {
      id: i + 1,
      url: d.url,
      title: d.title,
      content: d.content,
      domain: new URL(d.url).hostname,
      publishedDate: d.published_date ?? null,
      day: d.published_date?.slice(0, 10) ?? null,
      country: d.country ?? null,
    };
  });
