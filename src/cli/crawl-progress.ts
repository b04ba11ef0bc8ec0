import type { CrawlProgress } from '../index/crawl/crawl-site.ts';

/** Plain progress lines come every this many URLs when stderr is not a terminal (logs, CI). */
const PLAIN_EVERY = 10;

const describe = (p: CrawlProgress): string =>
  `${p.indexed} indexed, ${p.queued} queued, ${p.skipped} skipped (${p.errors} error${p.errors === 1 ? '' : 's'}), ${p.crawled} requested`;

export interface CrawlProgressDisplay {
  /** The crawl's counters changed. */
  update(p: CrawlProgress): void;
  /** Writes a whole line to `stream` (stdout or stderr) without tearing the progress line. */
  line(stream: NodeJS.WritableStream, text: string): void;
  /** Ends the display (the progress line stays, followed by a line break). */
  done(): void;
}

/**
 * `scout index crawl` progress on stderr: on a terminal one line rewritten in place
 * ("crawl: 12 indexed, 30 queued, 2 skipped (1 error), 15 requested"), cleared around every
 * other line written so the per-page lines stay readable; elsewhere a plain `progress:` line
 * every 10 URLs, so a log shows the crawl moving without a carriage return in it.
 */
export function createCrawlProgress(stderr: NodeJS.WritableStream): CrawlProgressDisplay {
  const tty = (stderr as NodeJS.WriteStream).isTTY === true;
  let last: CrawlProgress | undefined;
  let shown = false;
  let sinceLine = 0;
  const clear = () => {
    if (tty && shown) stderr.write('\r\x1b[K');
    shown = false;
  };
  const draw = () => {
    if (!tty || last === undefined) return;
    stderr.write(`\r\x1b[Kcrawl: ${describe(last)}`);
    shown = true;
  };
  return {
    update(p) {
      last = p;
      if (tty) return draw();
      if (++sinceLine >= PLAIN_EVERY) {
        sinceLine = 0;
        stderr.write(`progress: ${describe(p)}\n`);
      }
    },
    line(stream, text) {
      clear();
      stream.write(text.endsWith('\n') ? text : `${text}\n`);
      draw();
    },
    done() {
      if (tty && shown) stderr.write('\n');
      shown = false;
    },
  };
}
