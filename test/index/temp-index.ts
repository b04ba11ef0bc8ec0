import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach } from 'vitest';
import {
  openLocalIndex,
  type IndexDocument,
  type LocalIndex,
  type LocalIndexOptions,
  type LocalSearch,
} from '../../src/index/local-index.ts';

/**
 * Real SQLite index files in temporary folders, closed and removed after each test.
 * Call `useTempIndexes()` once at the top of a test file.
 */
export function useTempIndexes(): { dir: () => string; open: (options?: LocalIndexOptions) => LocalIndex } {
  const dirs: string[] = [];
  const open: LocalIndex[] = [];
  afterEach(() => {
    for (const i of open.splice(0)) {
      try {
        i.close();
      } catch {
        // already closed by the test
      }
    }
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });
  const dir = (): string => {
    const d = mkdtempSync(join(tmpdir(), 'scout-index-test-'));
    dirs.push(d);
    return d;
  };
  return {
    dir,
    open: (options) => {
      const index = openLocalIndex(join(dir(), 'index.db'), options);
      open.push(index);
      return index;
    },
  };
}

export const doc = (n: number | string, extra: Partial<IndexDocument> = {}): IndexDocument => ({
  url: `https://example.com/doc-${n}`,
  title: `Document ${n}`,
  content: `Plain filler text for document ${n}.`,
  ...extra,
});

export const search = (query: string, extra: Partial<LocalSearch> = {}): LocalSearch => ({
  query,
  limit: 10,
  includeDomains: [],
  excludeDomains: [],
  ...extra,
});
