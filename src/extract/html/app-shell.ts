import { contentText, type PageSignals } from './page-signals.ts';

/**
 * Recognises an app shell: a page whose text only appears once its JavaScript runs (an
 * empty `<div id="root">` or `<app-root>` and a bundle). Scout fetches static HTML, so
 * returning the few characters such a page holds as if they were the page would mislead.
 * Server-rendered pages that hydrate (Next.js with `__NEXT_DATA__`, Nuxt) carry their text
 * in the HTML and are never matched: the rule needs almost no text, a script, and either an
 * empty mount point or a "you need JavaScript" fallback written for an app.
 */

export interface AppShell {
  /** Characters of visible text the static HTML holds outside its header, navigation, aside and footer. */
  textChars: number;
}

/** More visible text than this is content, whatever framework rendered it. */
export const MAX_SHELL_TEXT = 300;

const SCRIPT = /<script\b[^>]{0,500}?\b(?:src=|type=["']?module\b)/i;

/** The mount points of React, Vue, Next.js, Nuxt, Gatsby, Svelte and Quasar, left empty. */
const EMPTY_MOUNT =
  /<(div|main|section)\b[^>]{0,300}?\bid=["']?(?:root|app|__next|__nuxt|___gatsby|svelte|q-app|react-root|app-root)(?:["'][^>]{0,300})?>\s{0,200}<\/\1\s{0,20}>/i;

/** Angular's default root element, which holds at most a loading indicator before bootstrap. */
const CUSTOM_MOUNT = /<app-root\b/i;

/**
 * The fallbacks app templates ship (Create React App, Vue CLI, Angular); "enable JavaScript
 * to view the comments" (Disqus on an ordinary page) is not one of them.
 */
const NOSCRIPT_APP =
  /<noscript\b[^>]{0,200}>[\s\S]{0,600}?(?:need to enable javascript|enable javascript to (?:run|use|continue|access)|(?:does ?n['’]?t|will not|won['’]t|cannot|can['’]t) work (?:properly )?without javascript|requires? javascript|javascript (?:is )?required|javascript must be enabled)/i;

/** Whether the markup has what an app shell needs besides little text: a script, and an empty mount or an app's fallback. */
function hasAppMount(markup: string): boolean {
  if (!SCRIPT.test(markup)) return false;
  return EMPTY_MOUNT.test(markup) || CUSTOM_MOUNT.test(markup) || NOSCRIPT_APP.test(markup);
}

/** The mount ids as the frameworks write them (lower case, so no case-blind scan is needed), or Angular's root element. */
const MOUNT_ID = /id=["']?(?:root|app|__next|__nuxt|___gatsby|svelte|q-app|react-root|app-root)["'\s>]|<app-root\b/;

/**
 * Whether a page whose markdown is long may still be a shell: a script and an empty mount
 * point (not a noscript fallback, which many a long page carries). A quick scan for the
 * mount ids comes first: the patterns, case-blind, walk the attributes of every element,
 * which on a long article costs more than the check saves.
 */
export function mayBeShellWithChrome(markup: string): boolean {
  return MOUNT_ID.test(markup) && SCRIPT.test(markup) && (EMPTY_MOUNT.test(markup) || CUSTOM_MOUNT.test(markup));
}

export function findAppShell(p: PageSignals): AppShell | null {
  if (!hasAppMount(p.markup)) return null;
  const textChars = contentText(p).length;
  return textChars > MAX_SHELL_TEXT ? null : { textChars };
}
