/**
 * Realistic article pages for the content-stage tests and bench/advanced.ts: site chrome
 * (navigation, cookie banner, share bar, related posts, footer) around an article of
 * headings, paragraphs, lists, a table and a code block, grown to a target size. Seeded, so
 * every run serves the same bytes. Each article holds `facts`: sentences about its topic
 * that the tests look for in raw_content and extra_snippets.
 */

import { defined } from '../helpers/defined.ts';

const FILLER = (
  'the of and to in a is that for it as was with be by on not he this are or his from at which but have an ' +
  'they you were their one all we can her has there been if more when will would who so no about year people ' +
  'research system market report policy development community government council support project history ' +
  'season network service program evidence analysis growth region industry example process particular'
).split(' ');

export interface Article {
  title: string;
  html: string;
  /** Sentences of the article body that mention the topic words. */
  facts: string[];
}

export interface ArticleOptions {
  seed: number;
  /** Words this article is about; they appear in `facts` only, never in the filler. */
  topic: string[];
  /** Approximate HTML size in kilobytes. */
  kb: number;
}

function rng(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

function sentence(rand: () => number, words: number): string {
  const out = Array.from({ length: words }, () => defined(FILLER[Math.floor(rand() * FILLER.length)], 'a filler word'));
  const first = defined(out[0], 'a first word');
  out[0] = first.charAt(0).toUpperCase() + first.slice(1);
  return `${out.join(' ')}.`;
}

function paragraph(rand: () => number): string {
  return Array.from({ length: 3 + Math.floor(rand() * 4) }, () => sentence(rand, 8 + Math.floor(rand() * 14))).join(
    ' ',
  );
}

const CHROME_TOP = `<header class="site-header"><nav class="main-nav"><ul>
<li><a href="/">Home</a></li><li><a href="/news">News</a></li><li><a href="/sport">Sport</a></li>
<li><a href="/culture">Culture</a></li><li><a href="/about">About us</a></li></ul></nav></header>
<div class="cookie-banner" id="cookie-consent"><p>We use cookies to improve your experience. <a href="/privacy">Privacy policy</a></p><button>Accept all</button></div>`;

const CHROME_BOTTOM = `<aside class="related-posts"><h3>Related posts</h3><ul>
<li><a href="/p/1">Ten things you did not know</a></li><li><a href="/p/2">Our weekly newsletter</a></li></ul></aside>
<footer class="site-footer"><p>© 2024 Example Media. All rights reserved.</p><a href="/terms">Terms</a></footer>`;

function body(rand: () => number, facts: string[], kb: number): string {
  const parts: string[] = [];
  let size = 0;
  let section = 0;
  let fact = 0;
  while (size < kb * 1024) {
    section += 1;
    const chunk: string[] = [`<h2>Section ${section}: ${sentence(rand, 4).slice(0, -1)}</h2>`];
    for (let p = 0; p < 4; p += 1) {
      // Facts are spread through the article: one every second section.
      const withFact = p === 1 && section % 2 === 0 && fact < facts.length;
      chunk.push(`<p>${paragraph(rand)}${withFact ? ` ${facts[fact++]}` : ''}</p>`);
    }
    if (section % 3 === 0)
      chunk.push(`<ul>${Array.from({ length: 4 }, () => `<li>${sentence(rand, 6)}</li>`).join('')}</ul>`);
    if (section % 5 === 0) {
      chunk.push(
        '<table><thead><tr><th>Year</th><th>Value</th></tr></thead><tbody>' +
          Array.from(
            { length: 4 },
            (_, i) => `<tr><td>${2019 + i}</td><td>${Math.floor(rand() * 1000)}</td></tr>`,
          ).join('') +
          '</tbody></table>',
      );
    }
    if (section % 7 === 0)
      chunk.push(
        `<pre><code class="language-js">const total = items.reduce((a, b) => a + b, 0);\nconsole.log(total);</code></pre>`,
      );
    const html = chunk.join('\n');
    parts.push(html);
    size += html.length;
  }
  // Any facts left go in a closing paragraph so every fact is in every article.
  if (fact < facts.length) parts.push(`<p>${facts.slice(fact).join(' ')}</p>`);
  return parts.join('\n');
}

export function makeArticle(options: ArticleOptions): Article {
  const rand = rng(options.seed);
  const [a, b = a, c = b] = options.topic;
  const title = `Understanding ${a} and ${b}`;
  const facts = [
    `Experts agree that ${a} changed how ${b} is studied in the last decade.`,
    `The ${c} survey measured ${a} across forty sites and found steady gains.`,
    `Critics of ${b} say the ${a} figures need careful reading before use.`,
  ];
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title} | Example Media</title>
<meta property="og:title" content="${title}"></head><body>${CHROME_TOP}
<main><article><h1>${title}</h1><p class="byline">By Jane Doe · 12 March 2024</p>
<div class="share-bar"><a href="/share/tw">Share</a> <a href="/share/fb">Post</a></div>
${body(rand, facts, options.kb)}
</article></main>${CHROME_BOTTOM}</body></html>`;
  return { title, html, facts };
}
