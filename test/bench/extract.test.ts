import { execFile } from 'node:child_process';
import { basename } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { RULE_NAMES } from '../../src/extract/html/extract-rules.ts';
import { pageHtml, removeSets, wcxbEntry, writeSet } from './wcxb-fixture.ts';

afterAll(removeSets);

const run = promisify(execFile);
const script = fileURLToPath(new URL('../../bench/extract.ts', import.meta.url));

const prose = (topic: string) => [
  `The ${topic} guide explains every step of the process in plain words, with enough detail for a first reading.`,
  `Each section of the ${topic} guide builds on the one before it, so a reader can follow along from the start to the end.`,
  `When the ${topic} work is done, the result is checked again, and anything that went wrong is written down for next time.`,
];

/**
 * Eight synthetic WCXB pages, one of them empty (the page has no text at all). Of the ids
 * 0001…0008, the held-out quarter's hash picks 0004, 0005 and 0008 (extract-dataset.test.ts).
 */
function fixtureSet(): string {
  const types = ['article', 'forum', 'product', 'service', 'documentation', 'listing', 'collection', 'forum'];
  const pages = types.map((type, i) => {
    const id = String(i + 1).padStart(4, '0');
    if (id === '0005') {
      const html = '<!doctype html><html><head><title>Nothing</title></head><body></body></html>';
      return { id, html, entry: wcxbEntry(type, 'The posts that never came.', { with: ['posts'] }) };
    }
    const paragraphs = prose(type);
    return {
      id,
      html: pageHtml(`The ${type} guide`, paragraphs),
      entry: wcxbEntry(type, paragraphs.join('\n'), { with: [paragraphs[0] ?? ''], without: ['All rights reserved'] }),
    };
  });
  return writeSet(pages);
}

async function bench(dir: string, ...flags: string[]): Promise<string> {
  const { stdout } = await run(process.execPath, ['--import', 'tsx', script, dir, '--rounds', '1', ...flags], {
    timeout: 120_000,
  });
  return stdout;
}

/** The cells of the `nth` printed line (from 0) that starts with `label` (then a space). */
function cells(out: string, label: string, nth = 0): string[] {
  const line = out.split('\n').filter((l) => l.startsWith(`${label} `))[nth];
  if (line === undefined) throw new Error(`no line starting with ${label} in:\n${out}`);
  return line.slice(label.length).trim().split(/\s+/);
}

describe('bench:extract on a WCXB-shaped set', () => {
  it('reports the held-out quarter per page type for Scout and the baseline, with ablation', async () => {
    const dir = fixtureSet();
    const out = await bench(dir, '--split', 'holdout', '--ablation');
    expect(out).toContain(`${basename(dir)} (holdout): 3 pages`);
    expect(cells(out, 'mean word F1')).toEqual([
      'all',
      'article',
      'forum',
      'product',
      'collection',
      'listing',
      'documentation',
      'service',
    ]);
    // 0004 service, 0005 documentation (empty), 0008 forum.
    expect(cells(out, 'pages')).toEqual(['3', '0', '1', '0', '0', '0', '1', '1']);
    for (const name of ['scout', 'baseline']) {
      const speed = cells(out, name);
      expect(Number(speed[0])).toBeGreaterThan(0); // pages/s
      const f1 = cells(out, name, 1);
      expect(f1).toHaveLength(8);
      expect(f1[1]).toBe('-'); // no article page in this split
      expect(out).toContain(`${name} per page type:`);
    }
    // The empty page: F1 0, no `with` snippet found, counted in `empty` for both.
    const detail = out.split(/\n(?=baseline per page type)/);
    for (const part of detail.slice(0, 2)) {
      const doc = cells(part.slice(part.indexOf('per page type')), 'documentation');
      expect(doc).toEqual(['1', '0.0000', '0.0000', '0.0000', '0.0%', '100.0%', '1']);
    }
    expect(out).toMatch(/ablation on .* per page type/);
    for (const rule of RULE_NAMES) expect(out.split('\n').filter((l) => l.startsWith(`${rule} `))).toHaveLength(2);
  });

  it('keeps the other three quarters for --split dev', async () => {
    const out = await bench(fixtureSet(), '--split', 'dev');
    expect(out).toMatch(/\(dev\): 5 pages/);
    expect(cells(out, 'pages')).toEqual(['5', '1', '1', '1', '1', '1', '0', '0']);
  });
});
