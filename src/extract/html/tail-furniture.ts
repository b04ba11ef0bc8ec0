/**
 * What sites append after an article's last sentence: the site's trademark notice and
 * disclaimers, how to reach the reporter, calls to follow, subscribe or search for more.
 * Only the blocks at the very end are judged, last first, and the walk stops at the first
 * block that is none of these: the same words inside an article are its text. Copyright
 * lines ("© 2019 Associated Press. All rights reserved.") stay: one benchmark counts a wire
 * story's notice as its text and another does not, and dropping them helped one and hurt
 * the other (measured with bench:extract's ablation).
 */
const SITE_NOTICE =
  /\b(?:is|are) not responsible for the content\b|\bdoes not (?:necessarily )?endorse\b|\b(?:views|opinions) expressed (?:here|in this|on this|are)\b|\b(?:are|is) (?:a |the )?(?:registered )?trademarks? (?:of|owned by)\b/i;
const CONTACT =
  /^(?:to contact the (?:reporter|writer|editor|author)s?\b|contact (?:the )?(?:reporter|writer|author)\b|(?:email|e-mail) (?:the )?(?:author|reporter|writer)\b|\S+(?: \S+){0,3} (?:can be reached|may be reached|is reachable) at\b)/i;
const CALL_TO_ACTION =
  /^(?:follow (?:us|me|him|her|them|[\w.]+ on)\b|like us on\b|sign up for\b|subscribe to\b|get (?:our|the) [\w\s]{0,30}newsletter\b|search for more\b|send (?:us )?(?:your )?(?:photos|pictures|videos|tips|news)\b|(?:have your say|post a comment|leave a comment|add a comment)\b|click here (?:to|for)\b|for more (?:news|stories|information),? (?:visit|go to|see|click)\b)/i;
/** Longer than this, a block is article text whatever it says; site notices run longer than calls to act. */
const MAX_NOTICE_CHARS = 1500;
const MAX_CHARS = 300;
/** Blocks looked at from the end (a related-stories list runs to several lines). */
const MAX_BLOCKS = 10;

export function isTailFurniture(text: string): boolean {
  if (text.length <= MAX_NOTICE_CHARS && SITE_NOTICE.test(text)) return true;
  return text.length <= MAX_CHARS && (CONTACT.test(text) || CALL_TO_ACTION.test(text));
}

/**
 * How many of the last blocks are tail furniture, counted from the end and stopping at the
 * first that is not: `isFurniture` says so of one block (isTailFurniture on its text, or a
 * line that is all link: the related stories after an article).
 */
export function tailFurnitureCount<T>(blocks: readonly T[], isFurniture: (block: T) => boolean): number {
  let n = 0;
  for (const block of blocks.slice(-MAX_BLOCKS).reverse()) {
    if (!isFurniture(block)) break;
    n += 1;
  }
  return n;
}
