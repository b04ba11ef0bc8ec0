import { splitBlocks } from './markdown-blocks.ts';
import { blockToPlainText } from './plain-text.ts';

/**
 * A page's markdown as plain text, for a client that asks for text (Tavily's `format: "text"`):
 * each block through blockToPlainText (Scout's one markdown-to-text: link text stays,
 * destinations, images and markup go, code keeps its characters), blocks apart by a blank line
 * as in the markdown; blocks with no text (an image alone) are dropped.
 */
export function markdownToPlainText(markdown: string): string {
  const out: string[] = [];
  for (const block of splitBlocks(markdown)) {
    const text = blockToPlainText(markdown.slice(block.start, block.end), block.fenced);
    if (text !== '') out.push(text);
  }
  return out.join('\n\n');
}
