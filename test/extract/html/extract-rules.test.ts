import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { extractDocument, extractDocumentWith } from '../../../src/extract/extract-document.ts';
import { ALL_RULES, RULE_NAMES, type RuleName, without } from '../../../src/extract/html/extract-rules.ts';
import { isTailFurniture, tailFurnitureCount } from '../../../src/extract/html/tail-furniture.ts';

const pages = join(import.meta.dirname, '..', 'pages');

/** A page written in the test, as extractDocumentWith takes it. */
const htmlInput = (html: string, url: string) => ({
  body: new TextEncoder().encode(html),
  contentType: 'text/html',
  url,
});

/** The markdown of a page written in the test. */
const extractHtml = async (html: string, url: string, rules = ALL_RULES): Promise<string> =>
  (await extractDocumentWith(htmlInput(html, url), rules)).markdown;

async function extract(name: string, rules = ALL_RULES): Promise<string> {
  const meta = JSON.parse(readFileSync(join(pages, name, 'meta.json'), 'utf8')) as {
    url: string;
    contentType: string | null;
  };
  const body = new Uint8Array(readFileSync(join(pages, name, 'input.html')));
  return (await extractDocumentWith({ body, contentType: meta.contentType, url: meta.url }, rules)).markdown;
}

/**
 * Each mechanism's golden page (test/extract/pages/) with its rule on and off: the rule is
 * what makes the difference, so turning it off in the benchmark's ablation measures it.
 */
/** `alsoOff`: rules that would do the same on this page, turned off with `rule` so its own part shows. */
const CASES: {
  page: string;
  rule: RuleName;
  alsoOff?: RuleName[];
  on: (md: string) => void;
  off: (md: string) => void;
}[] = [
  {
    // A shop's category page: two long intro paragraphs read as an article to the gate, and the
    // items under them are the page. The learned choice reads it whole: every item, its link and its line.
    page: 'collection-learned-choice',
    rule: 'learned-choice',
    on: (md) => {
      expect(md).toMatch(/^# Trail running shoes\n\nTrail shoes grip/);
      for (const name of ['Fellstrider 3', 'Peatmaster GTX', 'Night Owl', 'Coastline 4'])
        expect(md).toContain(`[${name}](`);
      expect(md).toContain('Quick-drying mesh for sandy coast paths.');
      expect(md).not.toMatch(/Jackets|Privacy|Example Outdoor Ltd/);
    },
    off: (md) => expect(md).not.toContain('[Fellstrider 3]('),
  },
  {
    // A page builder calls every block a widget: the word names the page's blocks, not furniture.
    page: 'service-page-builder',
    rule: 'common-words',
    on: (md) => {
      // Read whole (the learned choice may take it either way), the page keeps its own heading.
      expect(md).toMatch(/^(?:# Boiler Repair\n\n)?When your boiler stops heating/);
      expect(md).toContain('## What we fix');
      expect(md).toContain('## How a repair visit works');
      expect(md).not.toMatch(/Example Plumbing Ltd|Privacy|Services\]/);
    },
    off: (md) => expect(md).not.toContain('What we fix'),
  },
  {
    // The description lives in a script-filled tab: only the JSON-LD states it.
    page: 'product-jsonld',
    rule: 'product-facts',
    on: (md) => {
      expect(md).toMatch(
        /^# Trail Runner 2\n\nPrice: 129\.00 EUR · In stock · Brand: Example Outdoor\n\nA light trail shoe/,
      );
      // Specifications the page's own table shows are not repeated.
      expect(md).toContain('| Lug depth | 5 mm |');
      expect(md.match(/280 g/g)).toHaveLength(1);
    },
    off: (md) => expect(md).not.toMatch(/A light trail shoe|Price:/),
  },
  {
    // The thread is served inside <noscript>, beside an empty application shell (Discourse).
    page: 'forum-noscript-thread',
    rule: 'noscript-fallback',
    on: (md) => {
      expect(md).toContain('What is the safest way to move the whole vault');
      expect(md).toContain('every link and attachment was there');
      expect(md).not.toMatch(/enable JavaScript|Privacy Policy|Example Notes Forum/);
    },
    off: (md) => expect(md).toBe(''),
  },
  {
    // Every post in order under its author and date, not the longest post alone.
    page: 'qa-thread-microdata',
    rule: 'thread-posts',
    on: (md) => {
      expect(md.match(/^\*\*(baker_tom|flour_power|crumbshot)\*\* · Jan 1[01] at [0-9:]+$/gm)).toHaveLength(3);
      expect(md.indexOf('My sourdough rises')).toBeLessThan(md.indexOf('That is over-proofing'));
      expect(md.indexOf('That is over-proofing')).toBeLessThan(md.indexOf('Also check your scoring'));
      expect(md).not.toMatch(/Hot network questions|How long to rest a steak|Privacy/);
    },
    off: (md) => expect(md).not.toContain('**flour_power**'),
  },
  {
    // The opening post, described only in JSON-LD, is found beside the marked replies.
    page: 'forum-unmarked-opener',
    rule: 'thread-posts',
    on: (md) => {
      expect(md).toMatch(/^\*\*Maren\*\* · May 3, 2026\n\nWe are four people/);
      expect(md).toContain('**Olu** · May 3, 2026');
      expect(md).not.toMatch(/Messages|Moderator|Terms and rules/);
    },
    off: (md) => expect(md).not.toContain('**Olu**'),
  },
  {
    // Text separated by <br>, no long <p>: Readability's low-link pick is the article, not the whole body.
    page: 'br-separated-news',
    rule: 'prose-article',
    // The gate decides only with the learned choice off.
    alsoOff: ['learned-choice'],
    on: (md) => {
      expect(md).toMatch(/^PORT ELLIS - The harbour ferry/);
      expect(md).not.toContain('Most read');
      expect(md).not.toContain('Classifieds');
    },
    off: (md) => expect(md).toContain('Classifieds'),
  },
  {
    // The Blogger post sits in `widget Blog`, a furniture word; its <br> text makes it the anchor.
    page: 'blogger-widget-post',
    rule: 'anchor-shield',
    // `widget` marks most of this page's text, so common-words keeps the post too.
    alsoOff: ['common-words'],
    on: (md) => {
      expect(md).toMatch(/^Every autumn I keep seed/);
      expect(md).toContain('seed from F1 hybrids will not grow true');
      expect(md).not.toContain('Retired teacher');
    },
    off: (md) => expect(md).not.toContain('Every autumn I keep seed'),
  },
  {
    // A short post marked entry-content: the blog's longer description and terms are not the article.
    page: 'short-post-marked-body',
    rule: 'marked-body',
    on: (md) => {
      expect(md).toContain('Walking in the apple orchard at dawn');
      expect(md).not.toMatch(/Every week I write|Terms of use|moderated/);
    },
    off: (md) => expect(md).toMatch(/Every week I write|moderated/),
  },
  {
    // An embedded post and a product box inside the text: their wrappers say `social` and `widget`.
    page: 'article-with-embeds',
    rule: 'embeds',
    on: (md) => {
      expect(md).toContain('> Third river crossing of the morning');
      expect(md).toContain('Our pick: Fellstrider 3');
      expect(md).not.toMatch(/Shop more shoes|Peatmaster|Share/);
    },
    off: (md) => expect(md).not.toMatch(/Third river crossing|Fellstrider 3/),
  },
  {
    page: 'article-legal-tail',
    rule: 'tail-furniture',
    on: (md) => {
      expect(md.endsWith('One-way fares start at 690 kroner.')).toBe(true);
      expect(md).not.toMatch(/is a trademark of|To contact the reporter|Follow us/);
    },
    off: (md) => expect(md).toContain('is a trademark of'),
  },
];

describe('extraction rules, each on its golden page', () => {
  for (const c of CASES) {
    it(`${c.rule}: ${c.page}`, async () => {
      const on = await extract(c.page);
      c.on(on);
      const off = new Set(without(c.rule));
      for (const r of c.alsoOff ?? []) off.delete(r);
      c.off(await extract(c.page, off));
    });
  }

  it("repeated-title: the headline repeated as the article's first block goes (the title is returned on its own)", async () => {
    const para = 'The river rose by two metres overnight and the old bridge was closed to traffic at dawn. '.repeat(4);
    const html = `<!doctype html><html><head><title>Flood closes old bridge</title></head><body><article><p><b>Flood closes old bridge</b></p><p>${para}</p><p>${para}</p></article></body></html>`;
    const input = htmlInput(html, 'https://news.example/flood');
    const on = await extractDocumentWith(input, ALL_RULES);
    expect(on.title).toBe('Flood closes old bridge');
    expect(on.markdown).toMatch(/^The river rose/);
    expect((await extractDocumentWith(input, without('repeated-title'))).markdown).toMatch(
      /^\*\*Flood closes old bridge\*\*/,
    );
  });

  it('tail-furniture: a trailing run of whole-link lines (related stories) goes; a link list inside the text stays', async () => {
    const para =
      'The council approved the new cycle lanes on Tuesday after a two-hour debate in the town hall. '.repeat(3);
    const links = (prefix: string) =>
      [1, 2, 3].map((i) => `<li><a href="/${prefix}${i}">${prefix} story number ${i} about the town</a></li>`).join('');
    const html = `<!doctype html><html><head><title>Cycle lanes approved</title></head><body><article><p>${para}</p><p>Sources:</p><ul>${links('source')}</ul><p>${para}</p><p>${para}</p><h3>Related</h3><ul>${links('related')}</ul></article></body></html>`;
    const input = htmlInput(html, 'https://news.example/lanes');
    const on = (await extractDocumentWith(input, ALL_RULES)).markdown;
    expect(on).toContain('source story number 3');
    expect(on).not.toMatch(/related story|Related/);
    expect((await extractDocumentWith(input, without('tail-furniture'))).markdown).toContain('related story number 3');
  });

  it('thread-posts: an article with marked comments, and a FAQ of marked questions, are not threads', async () => {
    const para = 'The harbour ferry will run every twenty minutes from Monday while the bridge is repaired. '.repeat(4);
    const comment = (who: string, text: string) =>
      `<div itemprop="comment" itemscope itemtype="https://schema.org/Comment"><span itemprop="author">${who}</span><time>May 1</time><div itemprop="text"><p>${text}</p></div></div>`;
    const article = `<!doctype html><html><head><title>Ferry timetable</title></head><body><article itemscope itemtype="https://schema.org/NewsArticle"><h1>Ferry timetable</h1><div itemprop="articleBody"><p>${para}</p><p>${para}</p></div><section class="comments">${comment('ann', 'Finally, a ferry that runs on time.')}${comment('bo', 'Will bikes be allowed on board?')}</section></article></body></html>`;
    const md = await extractHtml(article, 'https://news.example/ferry');
    expect(md).toMatch(/^The harbour ferry will run/);
    expect(md).not.toContain('**ann**');

    const qa = (q: string, a: string) =>
      `<div itemscope itemprop="mainEntity" itemtype="https://schema.org/Question"><h3 itemprop="name">${q}</h3><div itemscope itemprop="acceptedAnswer" itemtype="https://schema.org/Answer"><div itemprop="text"><p>${a}</p></div></div></div>`;
    const faq = `<!doctype html><html><head><title>Moving help</title></head><body><main><h1>Moving help</h1><p>${para}</p><section itemscope itemtype="https://schema.org/FAQPage">${qa('How early should I book?', 'Six weeks ahead in summer.')}${qa('Do you pack?', 'Yes, on request.')}</section></main></body></html>`;
    const faqMd = await extractHtml(faq, 'https://movers.example/help');
    expect(faqMd).toContain('The harbour ferry will run');
    expect(faqMd).toContain('How early should I book?');

    // Questions marked without a FAQPage around them, each holding its answer: still a FAQ.
    const bare = faq.replace('<section itemscope itemtype="https://schema.org/FAQPage">', '<section>');
    const bareMd = await extractHtml(bare, 'https://movers.example/help');
    expect(bareMd).toContain('The harbour ferry will run');
    expect(bareMd).toContain('Six weeks ahead in summer.');
  });

  it('the comment thread under a short article is not the article', async () => {
    const md = await extract('article-under-long-comments');
    expect(md).toMatch(/^The central library will open until 8pm/);
    expect(md).not.toMatch(/Ravi K|heating on the second floor|Comments \(4\)/);
  });

  it('production runs every rule, and extractDocument is extractDocumentWith every rule', async () => {
    expect([...ALL_RULES].sort()).toEqual([...RULE_NAMES].sort());
    const meta = JSON.parse(readFileSync(join(pages, 'article-legal-tail', 'meta.json'), 'utf8')) as {
      url: string;
      contentType: string;
    };
    const body = new Uint8Array(readFileSync(join(pages, 'article-legal-tail', 'input.html')));
    expect((await extractDocument({ body, contentType: meta.contentType, url: meta.url })).markdown).toBe(
      await extract('article-legal-tail'),
    );
  });
});

describe('tail furniture', () => {
  it('knows legal notices, reporter contacts and calls to act, and leaves article sentences alone', () => {
    for (const t of [
      'NHL, the NHL Shield and the word mark are registered trademarks of the National Hockey League.',
      'Northern Wire is a trademark of Northern Wire Media AS.',
      'To contact the reporter on this story: Jane Roe in London at jroe@example.com',
      'Emery Cowan can be reached at (928) 556-2250.',
      'Follow us on Twitter for the latest news.',
      'Sign up for our morning newsletter.',
      'Note: the BBC is not responsible for the content of external sites.',
    ]) {
      expect(isTailFurniture(t), t).toBe(true);
    }
    for (const t of [
      // A wire story's copyright line is its text in one benchmark and not in another: kept.
      '© 2019 Associated Press. All Rights Reserved. This material may not be published, broadcast, rewritten, or redistributed.',
      'The company said all rights to the film had been sold.',
      'She followed the river for three days before she was found.',
      'Copyright law has not kept pace with the technology, the report says.',
      `${'A long paragraph of article text. '.repeat(12)}Follow us on Twitter.`,
    ]) {
      expect(isTailFurniture(t), t).toBe(false);
    }
  });

  it('counts only from the end, and stops at the first block that is article text', () => {
    expect(
      tailFurnitureCount(['Article text.', 'Follow us on Twitter.', 'Sign up for our newsletter.'], isTailFurniture),
    ).toBe(2);
    expect(tailFurnitureCount(['Follow us on Twitter.', 'Article text ends here.'], isTailFurniture)).toBe(0);
    expect(tailFurnitureCount([], isTailFurniture)).toBe(0);
  });
});
