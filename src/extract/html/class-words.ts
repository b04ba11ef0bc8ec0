/**
 * Class/id vocabulary of page furniture. Names are split into words (camelCase, `-`, `_`,
 * `:`) so `signupBackground___27LhS` says "signup" and `l-article-body` says nothing,
 * which avoids the substring false positives of Readability's regexes ("shared",
 * "blueprint", "commentary").
 */

/** Readers' comment threads: furniture, and never counted as article text (content-anchor.ts). */
const THREAD_WORDS = 'comment|comments|commentlist|disqus|replies|discussion';

/** Containers that are never the article: removed unless they hold much of the page's text. */
const CONTAINER_WORDS =
  'ad|ads|adv|advert|advertisement|advertising|adslot|banner|breadcrumb|breadcrumbs|' +
  `${THREAD_WORDS}|respond|community|` +
  'cookie|cookies|consent|gdpr|newsletter|newsletters|subscribe|subscription|signup|' +
  'share|sharing|sharebar|sharetools|social|socials|follow|related|recommended|recommendations|' +
  'recirc|recirculation|trending|popular|mostread|outbrain|taboola|sidebar|widget|widgets|' +
  'nav|navbar|navigation|menu|footer|masthead|toolbar|pagination|pager|promo|promos|promotion|' +
  'sponsor|sponsored|modal|popup|overlay|login|signin|paywall|donate|donation|skip|tooltip|cta';

/** Small page furniture around the text: removed only when short. */
const SMALL_WORDS =
  'caption|captions|credit|credits|byline|bylines|author|authors|dateline|timestamp|date|dates|' +
  'time|published|updated|meta|metadata|tags|tag|categories|category|bio|copyright|rating|' +
  'gallery|slideshow|carousel|slider|readmore|kicker|eyebrow|label|badge|disclaimer|' +
  'dek|standfirst|subhead|subheadline|subtitle';

const PHRASES = 'sr only|visually hidden|screen reader|read more|more stories|you may like|see also';

/**
 * Furniture words glued to another (`commentbody`, `relatedposts`, `sidebarleft`,
 * `footerlinks`): old templates do not separate them. Only words that begin nothing else.
 */
const GLUED =
  'comment(?!ar|at)[a-z]+|related[a-z]+|sidebar[a-z]+|footer[a-z]+|newsletter[a-z]+|breadcrumb[a-z]+|disqus[a-z]+|outbrain[a-z]+|taboola[a-z]+';

const containerRe = new RegExp(`\\b(?:${CONTAINER_WORDS}|${PHRASES}|${GLUED})\\b`);
const smallRe = new RegExp(`\\b(?:${SMALL_WORDS})\\b`);
const threadRe = new RegExp(`\\b(?:${THREAD_WORDS})\\b`);

/** Splits `articleByline__name sr-only` into `article byline name sr only`. */
export function classWords(value: string): string {
  return value
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .replace(/[-_:./\s]+/g, ' ')
    .toLowerCase();
}

export type FurnitureKind = 'container' | 'small' | null;

export function furnitureKind(words: string): FurnitureKind {
  if (words.length === 0) return null;
  if (containerRe.test(words)) return 'container';
  if (smallRe.test(words)) return 'small';
  return null;
}

/** The class and id words of an element (classWords of both); '' when it has neither. */
export function elementWords(el: Element): string {
  const names = `${el.getAttribute('class') ?? ''} ${el.id}`;
  return names.length < 2 ? '' : classWords(names);
}

/** Whether class words name a comment thread. */
export const namesCommentThread = (words: string): boolean => threadRe.test(words);
