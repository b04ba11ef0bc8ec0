import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { extractDocument } from '../../src/extract/extract-document.ts';

/**
 * Golden pages: test/extract/pages/<case>/input.html (bytes as an origin would send them),
 * meta.json ({url, contentType, title?}) and expected.md. A heuristic change shows up as a
 * reviewable diff of expected.md. To regenerate after an intended change:
 * UPDATE_GOLDEN=1 npx vitest run test/extract/golden.test.ts, then read the diff.
 */
interface Meta {
  url: string;
  contentType: string | null;
  title?: string;
}

const root = join(import.meta.dirname, 'pages');
const cases = readdirSync(root)
  .filter((name) => existsSync(join(root, name, 'input.html')))
  .sort();
const update = process.env.UPDATE_GOLDEN === '1';

describe('golden pages', () => {
  it('has cases', () => {
    expect(cases.length).toBeGreaterThanOrEqual(8);
  });

  for (const name of cases) {
    it(name, async () => {
      const dir = join(root, name);
      const meta = JSON.parse(readFileSync(join(dir, 'meta.json'), 'utf8')) as Meta;
      const body = new Uint8Array(readFileSync(join(dir, 'input.html')));
      const doc = await extractDocument({ body, contentType: meta.contentType, url: meta.url });
      const expectedPath = join(dir, 'expected.md');
      if (update) writeFileSync(expectedPath, `${doc.markdown}\n`);
      expect(doc.markdown).toBe(readFileSync(expectedPath, 'utf8').replace(/\n$/, ''));
      if (meta.title !== undefined) expect(doc.title).toBe(meta.title);
    });
  }
});
