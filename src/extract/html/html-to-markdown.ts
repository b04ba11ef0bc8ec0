import TurndownService from 'turndown';
import { codeLanguage } from './code-language.ts';
import { isDataTable, tableToMarkdown } from './table-to-markdown.ts';

/** Text of a code block with `<br>` kept as line breaks (some highlighters emit them). */
function codeText(node: Node): string {
  if (node.nodeType === 3) return node.nodeValue ?? '';
  if (node.nodeName === 'BR') return '\n';
  let out = '';
  for (let c = node.firstChild; c !== null; c = c.nextSibling) out += codeText(c);
  return out;
}

function fenceFor(code: string): string {
  const longest = Math.max(2, ...(code.match(/`+/g) ?? []).map((run) => run.length));
  return '`'.repeat(longest + 1);
}

const BLOCKS_IN_LINK = 'p,div,h1,h2,h3,h4,h5,h6,ul,ol,li,section,article,figure,header,footer,table,blockquote';

function addRules(service: TurndownService): void {
  service.addRule('fencedCodeWithLanguage', {
    filter: (node) => node.nodeName === 'PRE',
    replacement: (_content, node) => {
      const code = codeText(node).replace(/^\n+|\s+$/g, '');
      if (code.length === 0) return '';
      const fence = fenceFor(code);
      return `\n\n${fence}${codeLanguage(node) ?? ''}\n${code}\n${fence}\n\n`;
    },
  });
  service.addRule('dataTable', {
    filter: (node) => node.nodeName === 'TABLE' && isDataTable(node),
    replacement: (_content, node) => tableToMarkdown(node, (cell) => service.turndown(cell as HTMLElement)),
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
    filter: (node) => node.nodeName === 'A' && (node.textContent ?? '').trim() === '' && node.querySelector('img') === null,
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
      const body = content.replace(/^\n+|\n+$/g, '') + (isParagraph ? '\n' : '');
      return prefix + body.replace(/\n/g, `\n${' '.repeat(prefix.length)}`) + (node.nextSibling ? '\n' : '');
    },
  });
  service.addRule('blockLink', {
    // A link wrapping blocks (teaser cards) would print `[` and `](url)` on lines of their
    // own; flattened to one line it stays a valid link.
    filter: (node) => node.nodeName === 'A' && node.hasAttribute('href') && node.querySelector(BLOCKS_IN_LINK) !== null,
    replacement: (content, node) => {
      const text = content
        .replace(/^#{1,6}\s+/gm, '')
        .replace(/\s*\n+\s*/g, ' ')
        .trim();
      return text ? `[${text}](${(node.getAttribute('href') ?? '').replace(/([()<> ])/g, '\\$1')})` : '';
    },
  });
  service.addRule('dataImage', {
    // Inline base64 images would flood the output and tell an agent nothing.
    filter: (node) => node.nodeName === 'IMG' && /^\s*data:/i.test(node.getAttribute('src') ?? ''),
    replacement: () => '',
  });
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
    addRules(shared);
  }
  return shared;
}

/** Converts an element (e.g. the extracted article) to GitHub-flavoured markdown. */
export function htmlToMarkdown(root: Element): string {
  return service()
    .turndown(root as HTMLElement)
    .replace(/^[ \t]+$/gm, '')
    .replace(/[ \t]+(?=\n\n|\n?$)/g, '')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
