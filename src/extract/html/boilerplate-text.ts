/**
 * Text patterns of furniture that sits inside article containers without a telling class:
 * promo labels, bylines, datelines, photo credits, copyright and contribution lines.
 * Each applies only to a short block that consists of nothing else (see clean-article.ts).
 */
import { trimEndWhere } from '../text-scan.ts';

/** Whole-block UI words (English plus the most common translations of "advertisement"). */
const UI_WORDS = new Set([
  'advertisement',
  'advertising',
  'ad',
  'ads',
  'sponsored',
  'anzeige',
  'werbung',
  'publicité',
  'publicidad',
  'iklan',
  'реклама',
  'comments',
  'comment',
  'share',
  'share this',
  'share this article',
  'tweet',
  'email',
  'print',
  'subscribe',
  'sign up',
  'caption',
  'close',
  'loading',
  'read more',
  'read next',
  'related',
  'related articles',
  'related stories',
  'related posts',
  "don't miss",
  'don’t miss',
  'you may also like',
  'you might also like',
  'recommended',
  'more stories',
  'trending',
  'most popular',
  'most read',
  'advertisement - scroll to continue',
  'skip advertisement',
  'continue reading',
  'by',
  'image',
  'photo',
  'video',
  'enlarge this image',
  'toggle caption',
  'hide caption',
]);

const PROMO_LABEL =
  /^(?:read more|read also|also read|related(?: posts?| stories| articles| coverage| content)?|see more|see also|more|don[’']?t miss|recommended|watch|listen|more on this|more from [^:]{1,40}|trending|sign up|subscribe)\s*[:：|]/i;
const BYLINE = /^(?:by|von|par|por|door|di|av|af)\s+\S.{0,70}$/i;
const CREDIT =
  /^[([]?\s*(?:photo|image|picture|pic|credit|source|foto|bild|illustration|video|courtesy)s?(?:\s+(?:credit|courtesy|copyright|by))?\s*[:：]|^(?:image|photo|picture) (?:copyright|caption|courtesy)\b|^credit\b|^courtesy of\b/i;
const CREDIT_SUFFIX = /[([]\s*(?:photo|image|picture|pic|credit|source|foto)s?\s*[:：][^)\]]*[)\]]\s*$/i;
const AGENCY_ONLY =
  /^(?:\(?(?:getty images?|getty|ap|afp|reuters|epa|shutterstock|istock|ap photo|pa|alamy)\)?[\s/,|]*)+$/i;
const CONTRIBUTION =
  /^[([]?\s*(?:additional reporting|reporting|editing|writing|compiled) by\b|\bcontributed (?:to )?(?:this )?report(?:ing)?\b/i;
const FILED_UNDER = /^(?:filed under|posted in|tags?|tagged|categories|category|topics)\s*[:：]/i;
const WRITE_TO = /^(?:write to|contact (?:the )?(?:author|writer)|follow (?:him|her|them|us|the author) on)\b/i;
const VIA = /^via\s+\S.{0,60}$/i;

/** What may follow a UI word ("Advertisement:", "More »"); trimmed with a loop, as `[…]+$` is quadratic on long runs. */
const TRAILING_PUNCTUATION = /[\s:.!…»›>|]/;
const isTrailingPunctuation = (c: string): boolean => TRAILING_PUNCTUATION.test(c);

const MONTH =
  /\b(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sept?(?:ember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\b\.?/i;
const YEAR = /\b(?:19|20)\d\d\b/;
const CLOCK = /\b\d{1,2}[:.h]\d\d\b/;
const NUMERIC_DATE = /\b\d{1,4}[./-]\d{1,2}[./-]\d{1,4}\b/;
const DATE_WORDS = /^(?:published|updated|posted|last updated|modified|first published|created)\b/i;

/** A line that only says when: "Nov. 20, 2019, 9:28 AM UTC", "Updated: Sat 8:31 PM, Feb 17". */
export function isDateline(text: string): boolean {
  // An embedded tweet's attribution ("— Name (@handle) October 9, 2018") is quoted content.
  if (
    text.length > 100 ||
    /^[—–-]|@\w/.test(text) ||
    /[.!?]["”’]?$/.test(text.replace(/\b(?:a\.m|p\.m|[A-Z][a-z]{2})\.$/, ''))
  )
    return false;
  const words = text.split(/\s+/).length;
  if (words > 12) return false;
  const signals =
    (YEAR.test(text) ? 1 : 0) +
    (MONTH.test(text) ? 1 : 0) +
    (CLOCK.test(text) ? 1 : 0) +
    (NUMERIC_DATE.test(text) ? 2 : 0) +
    (DATE_WORDS.test(text) ? 2 : 0);
  return signals >= 2;
}

/** True when a short block's whole text marks it as furniture. */
export function isBoilerplateText(text: string): boolean {
  const lower = trimEndWhere(text.toLowerCase(), isTrailingPunctuation);
  if (UI_WORDS.has(lower)) return true;
  if (text.length > 300) return false;
  return (
    PROMO_LABEL.test(text) ||
    (BYLINE.test(text) && !/[.!?]$/.test(text)) ||
    CREDIT.test(text) ||
    CREDIT_SUFFIX.test(text) ||
    AGENCY_ONLY.test(text) ||
    CONTRIBUTION.test(text) ||
    FILED_UNDER.test(text) ||
    WRITE_TO.test(text) ||
    VIA.test(text) ||
    isDateline(text)
  );
}
