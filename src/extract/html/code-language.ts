import { must } from '../../domain/must.ts';
/**
 * Language of a code block from the class conventions of the common highlighters:
 * `language-x`/`lang-x` (Prism, highlight.js, markdown renderers), `highlight-source-x`
 * (GitHub), `brush: x` (SyntaxHighlighter), `sourceCode x` (pandoc), `hljs x`.
 */
const PATTERNS = [
  /(?:^|\s)(?:language|lang)-([\w#+.-]+)/i,
  /(?:^|\s)highlight-(?:source|text)-([\w#+.-]+)/i,
  /brush:\s*([\w#+.-]+)/i,
  /(?:^|\s)sourceCode\s+([\w#+.-]+)/,
];
const IGNORED = new Set(['none', 'plain', 'plaintext', 'text', 'txt', 'nohighlight', 'undefined', 'null']);

function fromClass(value: string | null): string | null {
  if (!value) return null;
  for (const re of PATTERNS) {
    const m = re.exec(value);
    if (!m) continue;
    const language = must(m[1], "a highlighter class's language").toLowerCase();
    return IGNORED.has(language) ? null : language;
  }
  return null;
}

/** Looks at the `pre`, its `code` child, `data-lang` and the two wrappers above it. */
export function codeLanguage(pre: Element): string | null {
  const explicit = pre.getAttribute('data-lang') ?? pre.getAttribute('data-language');
  if (explicit) return IGNORED.has(explicit.toLowerCase()) ? null : explicit.toLowerCase();
  const code = pre.firstElementChild?.tagName === 'CODE' ? pre.firstElementChild : null;
  const candidates = [pre, code, pre.parentElement, pre.parentElement?.parentElement];
  for (const el of candidates) {
    const lang = el ? (fromClass(el.getAttribute('class')) ?? fromClass(el.getAttribute('data-lang'))) : null;
    if (lang) return lang;
  }
  return null;
}
