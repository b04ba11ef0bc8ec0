import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createCrawlProgress } from '../../src/cli/crawl-progress.ts';

const stream = (tty: boolean) => {
  const s = new PassThrough() as PassThrough & { isTTY?: boolean };
  if (tty) s.isTTY = true;
  let text = '';
  s.on('data', (c) => (text += c));
  return { s, text: () => text };
};
const at = (indexed: number, queued = 5, skipped = 1, errors = 1) => ({
  crawled: indexed + skipped,
  indexed,
  skipped,
  queued,
  errors,
});

describe('crawl progress', () => {
  it('on a terminal: one line rewritten in place, cleared around page lines, ended with a line break', () => {
    const err = stream(true);
    const out = stream(false);
    const p = createCrawlProgress(err.s);
    p.update(at(1));
    p.line(out.s, 'indexed https://a.test/1 — One');
    p.update(at(2, 4, 1, 0));
    p.done();
    expect(out.text()).toBe('indexed https://a.test/1 — One\n');
    expect(err.text()).toBe(
      '\r\x1b[Kcrawl: 1 indexed, 5 queued, 1 skipped (1 error), 2 requested' +
        '\r\x1b[K' +
        '\r\x1b[Kcrawl: 1 indexed, 5 queued, 1 skipped (1 error), 2 requested' +
        '\r\x1b[Kcrawl: 2 indexed, 4 queued, 1 skipped (0 errors), 3 requested\n',
    );
  });

  it('elsewhere: plain lines, a progress line every 10 URLs, no control characters', () => {
    const err = stream(false);
    const p = createCrawlProgress(err.s);
    for (let i = 1; i <= 25; i++) {
      p.update(at(i));
      p.line(err.s, `skipped https://a.test/${i}: gone`);
    }
    p.done();
    const lines = err.text().split('\n').filter(Boolean);
    expect(lines.filter((l) => l.startsWith('progress: '))).toEqual([
      'progress: 10 indexed, 5 queued, 1 skipped (1 error), 11 requested',
      'progress: 20 indexed, 5 queued, 1 skipped (1 error), 21 requested',
    ]);
    expect(lines).toHaveLength(27);
    // biome-ignore lint/suspicious/noControlCharactersInRegex: a redraw (CR) or terminal escape (ESC) is what must not reach a non-TTY
    expect(err.text()).not.toMatch(/[\r\x1b]/);
  });
});
