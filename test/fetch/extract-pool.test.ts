import { afterEach, describe, expect, it } from 'vitest';
import { DomainError } from '../../src/domain/errors.ts';
import { createExtractPool, type ExtractPool } from '../../src/fetch/extract-pool.ts';
import { makePdf } from '../extract/make-pdf.ts';
import { HOSTILE_PAGES } from './hostile-pages.ts';

/**
 * The pool on its own: real workers (the production worker file, or a stand-in that
 * misbehaves on request), real termination. No timing is asserted beyond "it ends": a
 * worker that is not terminated would keep its task forever and the test would time out.
 */

const MISBEHAVING = new URL('./fixtures/misbehaving-worker.mjs', import.meta.url).href;
const bytes = (s: string): Uint8Array => new TextEncoder().encode(s);
const task = (url: string) => ({ body: new Uint8Array(0), contentType: 'text/plain', url });

const pools: ExtractPool[] = [];
const pool = (options: Partial<Parameters<typeof createExtractPool>[0]> = {}): ExtractPool => {
  const p = createExtractPool({ workers: 1, heapMb: 512, ...options });
  pools.push(p);
  return p;
};
afterEach(async () => {
  await Promise.all(pools.splice(0).map((p) => p.close()));
});

const failure = async (work: Promise<unknown>): Promise<unknown> =>
  work.then(
    () => expect.fail('expected a failure'),
    (e: unknown) => e,
  );

describe('createExtractPool with the extraction worker', () => {
  it('extracts in a worker and keeps DomainError kinds across the thread boundary', { timeout: 30_000 }, async () => {
    const p = pool();
    await p.ready();
    const doc = await p.extract({
      body: bytes('<title>T</title><p>Hello from a worker.</p>'),
      contentType: 'text/html',
      url: 'https://e.test/',
    });
    expect(doc).toEqual({ title: 'T', markdown: 'Hello from a worker.', contentType: 'text/html' });
    const image = await failure(
      p.extract({ body: bytes('GIF89a'), contentType: 'image/gif', url: 'https://e.test/i' }),
    );
    expect(image).toBeInstanceOf(DomainError);
    expect(image).toMatchObject({ kind: 'unsupported_media', message: expect.stringContaining('image/gif') });
    const pdf = await p.extract({
      body: makePdf([['Page one']], 'A PDF'),
      contentType: 'application/pdf',
      url: 'https://e.test/a.pdf',
    });
    expect(pdf).toMatchObject({ title: 'A PDF', markdown: 'Page one' });
  });

  it('reads the links of HTML pages in the worker when asked', { timeout: 30_000 }, async () => {
    const p = pool();
    const html = '<title>T</title><nav><a href="/next">next</a></nav><p>Text</p>';
    const { doc, links } = await p.run({
      body: bytes(html),
      contentType: 'text/html',
      url: 'https://e.test/a/',
      links: true,
    });
    expect(doc.title).toBe('T');
    expect(links).toEqual({ links: ['https://e.test/next'], index: true, follow: true });
    expect(
      (await p.run({ body: bytes(html), contentType: 'text/html', url: 'https://e.test/' })).links,
    ).toBeUndefined();
  });

  it('answers 502 for a page that needs more heap than the limit, and replaces the worker', {
    timeout: 60_000,
  }, async () => {
    const p = pool({ heapMb: 64 });
    const dense = HOSTILE_PAGES['dense markup']();
    const error = await failure(
      p.extract({ body: dense.body, contentType: dense.contentType, url: 'https://e.test/' }),
    );
    expect(error).toBeInstanceOf(DomainError);
    expect(error).toMatchObject({
      kind: 'upstream',
      message: 'the page needs more memory to extract than the limit of 64 MB',
    });
    const next = await p.extract({ body: bytes('<p>after</p>'), contentType: 'text/html', url: 'https://e.test/' });
    expect(next.markdown).toBe('after');
  });
});

describe('createExtractPool with a misbehaving worker', () => {
  it('terminates a worker that is still busy when the signal aborts, with the signal reason, and replaces it', {
    timeout: 30_000,
  }, async () => {
    const p = pool({ workerFile: MISBEHAVING });
    const controller = new AbortController();
    const spinning = failure(p.extract(task('spin:'), controller.signal));
    setTimeout(() => controller.abort(new DomainError('timeout', 'deadline passed')), 300);
    expect(await spinning).toMatchObject({ kind: 'timeout', message: 'deadline passed' });
    // One worker: this answers only if the spinning one was terminated and replaced.
    expect((await p.extract(task('echo:after'))).markdown).toBe('echo:after');
  });

  it('never starts a task whose signal has already aborted', { timeout: 30_000 }, async () => {
    const p = pool({ workerFile: MISBEHAVING });
    const signal = AbortSignal.abort(new DomainError('timeout', 'too late'));
    expect(await failure(p.extract(task('spin:'), signal))).toMatchObject({ kind: 'timeout', message: 'too late' });
    expect((await p.extract(task('echo:next'))).markdown).toBe('echo:next');
  });

  it('answers 502 when the worker exits mid-task, and replaces it', { timeout: 30_000 }, async () => {
    const p = pool({ workerFile: MISBEHAVING });
    const error = await failure(p.extract(task('exit:')));
    expect(error).toBeInstanceOf(DomainError);
    expect(error).toMatchObject({ kind: 'upstream', message: expect.stringContaining('exit code 3') });
    expect((await p.extract(task('echo:next'))).markdown).toBe('echo:next');
  });

  it('answers 502 when the worker runs out of heap, and replaces it', { timeout: 30_000 }, async () => {
    const p = pool({ workerFile: MISBEHAVING, heapMb: 32 });
    const error = await failure(p.extract(task('oom:')));
    expect(error).toMatchObject({
      kind: 'upstream',
      message: 'the page needs more memory to extract than the limit of 32 MB',
    });
    expect((await p.extract(task('echo:next'))).markdown).toBe('echo:next');
  });

  it('passes an unexpected worker error through as a plain error (a 500)', { timeout: 30_000 }, async () => {
    const p = pool({ workerFile: MISBEHAVING });
    const error = await failure(p.extract(task('throw:')));
    expect(error).not.toBeInstanceOf(DomainError);
    expect((error as Error).message).toContain('a bug in the worker');
  });

  it('answers 503 for work still waiting when the pool closes', { timeout: 30_000 }, async () => {
    const p = createExtractPool({ workers: 1, heapMb: 512, workerFile: MISBEHAVING });
    const running = failure(p.extract(task('spin:')));
    const queued = failure(p.extract(task('echo:queued')));
    await new Promise((resolve) => setTimeout(resolve, 200));
    await p.close();
    expect(await running).toMatchObject({ kind: 'unavailable' });
    expect(await queued).toMatchObject({ kind: 'unavailable' });
  });
});
