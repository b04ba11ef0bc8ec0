import { elementWords } from './class-words.ts';

/**
 * Class words of what an article embeds as part of its text: a quoted post (Twitter/X,
 * Instagram, TikTok, Facebook, Reddit, Bluesky and oEmbed blocks) or a product box the
 * piece is about. Their wrappers often also carry furniture words (`embed-social`,
 * `widget-product`), which alone would prune them.
 */
const EMBED_WORDS =
  /\b(?:embed|embeds|embedded|oembed|tweet|twitter tweet|instagram media|tiktok embed|fb post|reddit embed|bluesky embed|product box|product card|product)\b/;

/** Words that say the block is about other pages or paid for, whatever it embeds. */
const ELSEWHERE_WORDS =
  /\b(?:related|recommended|recommendations|more|ad|ads|adv|advert|advertisement|sponsor|sponsored|promo|promoted|affiliate|shop|store|timeline)\b/;

/** Whether `el`'s class or id names an embedded post or product box (and not a related or paid block). */
export function isEmbed(el: Element): boolean {
  const words = elementWords(el);
  return EMBED_WORDS.test(words) && !ELSEWHERE_WORDS.test(words);
}
