import TurndownService from 'turndown';
import { isBlank, isNewline, isSpace, joinLines, longestRun, trimEndWhere, trimStartWhere } from '../text-scan.ts';
import { codeText, shieldCodeBlocks, unguard } from './code-blocks.ts';
import { codeLanguage } from './code-language.ts';
import { isDataTable, tableToMarkdown } from './table-to-markdown.ts';
import { escapeMarkdownText } from './markdown-escape.ts';

function fenceFor(code: string): string {
  // A loop, not Math.max(...runs): spreading a few hundred thousand runs overflows the stack.
  return '`'.repeat(Math.max(2, longestRun(code, '`')) + 1);
}

const BLOCKS_IN_LINK = 'p,div,h1,h2,h3,h4,h5,h6,ul,ol,li,section,article,figure,header,footer,table,blockquote';

function addRules(service: TurndownService): void {
  service.addRule('fencedCodeWithLanguage', {
    filter: (node) => node.nodeName === 'PRE',
    replacement: (_content, node) => {
      const code = trimEndWhere(trimStartWhere(unguard(codeText(node)), isNewline), isSpace);
      if (code.length === 0) return '';
      const fence = fenceFor(code);
      return `\n\n${fence}${codeLanguage(node) ?? ''}\n${code}\n${fence}\n\n`;
    },
  });
  service.addRule('dataTable', {
    filter: (node) => node.nodeName === 'TABLE' && isDataTable(node),
    replacement: (_content, node) => tableToMarkdown(node, (cell) => convert(service, cell)),
  });
  service.addRule('tableSection', {
    // Captions are rendered by the table rule.
    filter: (node) => node.nodeName === 'CAPTION',
    replacement: () => '',
  });
  service.addRule('strikethrough', {
    filter: ['del', 's', 'strike' as keyof HTMLElementTagNameMap],
    replacement: (content) => (content.trim() ? `~~${content}~~` : ''),
  });
  service.addRule('emptyLink', {
    // Icon links (share buttons, social profiles) have no text: an empty `[](url)` is noise.
    filter: (node) =>
      node.nodeName === 'A' && unguard(node.textContent ?? '').trim() === '' && node.querySelector('img') === null,
    replacement: () => '',
  });
  service.addRule('compactListItem', {
    // Turndown pads markers to four columns (`-   item`); one space is what people write
    // and costs an agent fewer tokens. Nested content is indented by the marker's width.
    filter: 'li',
    replacement: (content, node) => {
      const parent = node.parentNode as Element | null;
      let prefix = '- ';
      if (parent?.nodeName === 'OL') {
        const start = Number.parseInt(parent.getAttribute('start') ?? '1', 10);
        prefix = `${(Number.isFinite(start) ? start : 1) + Array.prototype.indexOf.call(parent.children, node)}. `;
      }
      const isParagraph = /\n$/.test(content);
      const body = trimEndWhere(trimStartWhere(content, isNewline), isNewline) + (isParagraph ? '\n' : '');
      return prefix + body.replace(/\n/g, `\n${' '.repeat(prefix.length)}`) + (node.nextSibling ? '\n' : '');
    },
  });
  service.addRule('blockLink', {
    // A link wrapping blocks (teaser cards) would print `[` and `](url)` on lines of their
    // own; flattened to one line it stays a valid link.
    filter: (node) => node.nodeName === 'A' && node.hasAttribute('href') && node.querySelector(BLOCKS_IN_LINK) !== null,
    replacement: (content, node) => {
      const text = joinLines(content.replace(/^#{1,6}\s+/gm, '')).trim();
      return text ? `[${text}](${(node.getAttribute('href') ?? '').replace(/([()<> ])/g, '\\$1')})` : '';
    },
  });
  service.addRule('dataImage', {
    // Inline base64 images would flood the output and tell an agent nothing.
    filter: (node) => node.nodeName === 'IMG' && /^\s*data:/i.test(node.getAttribute('src') ?? ''),
    replacement: () => '',
  });
}

/** Marks the element whose converted content `convert` takes; the value keys `captured`. */
const CAPTURE = 'data-scout-capture';
const captured = new Map<string, string>();
let conversions = 0;

/**
 * Turndown ends every conversion with `.replace(/[\t\r\n\s]+$/, '')`, which rescans each
 * whitespace run of the output that does not end it: quadratic on a page of `<br>`s or
 * no-break spaces. This rule hands the finished content of the marked element to
 * `convert` and leaves Turndown an empty string to trim. Added last, so it is tried first.
 */
function addCaptureRule(service: TurndownService): void {
  service.addRule('capture', {
    filter: (node) => node.nodeType === 1 && node.hasAttribute(CAPTURE),
    replacement: (content, node) => {
      captured.set((node as Element).getAttribute(CAPTURE) ?? '', content);
      return '';
    },
  });
}

const isLeadingBreak = (c: string): boolean => c === '\t' || c === '\r' || c === '\n';

/**
 * `service.turndown(el)` without Turndown's quadratic final trim (same result: the
 * content of `el`, leading tabs and line breaks and trailing whitespace removed). `el` is
 * lent to a wrapper element for the call and put back. A blank element never reaches the
 * capture rule: its markdown is ''.
 */
function convert(service: TurndownService, el: Element): string {
  const id = String((conversions += 1));
  const wrapper = (el.ownerDocument as Document).createElement('div');
  const { parentNode, nextSibling } = el;
  el.setAttribute(CAPTURE, id);
  wrapper.appendChild(el);
  try {
    service.turndown(wrapper);
    return trimEndWhere(trimStartWhere(captured.get(id) ?? '', isLeadingBreak), isSpace);
  } finally {
    captured.delete(id);
    el.removeAttribute(CAPTURE);
    parentNode?.insertBefore(el, nextSibling);
  }
}

let shared: TurndownService | null = null;

function service(): TurndownService {
  if (shared === null) {
    shared = new TurndownService({
      headingStyle: 'atx',
      codeBlockStyle: 'fenced',
      bulletListMarker: '-',
      emDelimiter: '*',
      strongDelimiter: '**',
      hr: '---',
    });
    // Underscores inside words stay as they are (markdown-escape.ts).
    shared.escape = escapeMarkdownText;
    addRules(shared);
    addCaptureRule(shared);
  }
  return shared;
}

/** Line breaks as the `m` flag sees them, kept by split. */
const LINE_BREAKS = /([\n\r\u2028\u2029])/;

/**
 * Empties lines of only spaces and tabs, then drops trailing spaces and tabs before a
 * blank line or the end. Same result as `.replace(/^[ \t]+$/gm, '')` then
 * `.replace(/[ \t]+(?=\n\n|\n?$)/g, '')`, whose lookahead restarts at every position of a
 * long run of spaces (quadratic).
 */
function tidyLineEnds(markdown: string): string {
  // Even parts are lines' text, odd ones the line breaks between them.
  const parts = markdown
    .split(LINE_BREAKS)
    .map((part, i) => (i % 2 === 0 && trimEndWhere(part, isBlank) === '' ? '' : part));
  const lines = parts.join('').split('\n');
  const last = lines.length - 1;
  return lines.map((line, i) => (i === last || lines[i + 1] === '' ? trimEndWhere(line, isBlank) : line)).join('\n');
}

/**
 * Converts an element (e.g. the extracted article) to GitHub-flavoured markdown. Rewrites
 * the element's code blocks in place first (see code-blocks.ts): pass an element that is
 * not needed afterwards.
 */
export function htmlToMarkdown(root: Element): string {
  shieldCodeBlocks(root);
  return tidyLineEnds(unguard(convert(service(), root)))
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
