/**
 * Words dropped from queries before they reach FTS5 (never from the index: they still count
 * in document lengths and phrases). Lucene's English stop set plus the
 * function words of natural-language questions ("what does", "how can I"), which carry no
 * topic but lengthen every query's doclist walk, and the residue of contractions and
 * possessives ("alzheimer's" is tokenised as alzheimer + s). Deliberately kept, because they
 * are also content words in search: "us", "who" (WHO), "can", "may", "might", "d" (vitamin D).
 * It lives in the content room, the lowest one that reads it (passage terms): the index, the
 * sponsored matching and the OpenSearch analyzer read the same set from here.
 */
export const STOP_WORDS: ReadonlySet<string> = new Set(
  // Lucene EnglishAnalyzer.ENGLISH_STOP_WORDS_SET
  (
    'a an and are as at be but by for if in into is it no not of on or such that the their then there ' +
    'these they this to was will with ' +
    // question and pronoun words
    'am been being did do does doing done had has have having he her hers herself him himself his how i ' +
    'me my myself our ours ourselves she than them themselves those through what whats when where which ' +
    'while whom why would should could you your yours yourself yourselves we were its itself from about ' +
    'so too very just also any some each other own same both s t ll re ve'
  ).split(' '),
);
