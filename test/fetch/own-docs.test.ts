import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ownDocsReader } from '../../src/fetch/own-docs.ts';

const dir = mkdtempSync(join(tmpdir(), 'scout-own-docs-'));
writeFileSync(join(dir, 'api.md'), '\uFEFF# Scout **API**\n\nHow to call Scout.\n\n## Rate limits\n\nPer key.\n');
writeFileSync(join(dir, 'notes.md'), 'No heading here.\n');
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const read = ownDocsReader(dir);

describe('ownDocsReader', () => {
  it('answers scout.invalid/docs/<file>.md from the folder, the fragment ignored', async () => {
    expect(await read(new URL('https://scout.invalid/docs/api.md#rate-limits'))).toEqual({
      title: 'Scout API',
      markdown: '# Scout **API**\n\nHow to call Scout.\n\n## Rate limits\n\nPer key.',
    });
    expect(await read(new URL('http://SCOUT.invalid/docs/notes.md'))).toEqual({
      title: 'notes',
      markdown: 'No heading here.',
    });
  });

  it('leaves every other host to the network', async () => {
    for (const url of [
      'https://example.com/docs/api.md',
      'https://scout.invalid:8443/docs/api.md',
      'https://docs.scout.invalid/docs/api.md',
    ]) {
      expect(await read(new URL(url)), url).toBeUndefined();
    }
  });

  it('answers any other path on the host like an origin 404, never reading outside the folder', async () => {
    for (const path of [
      '/docs/absent.md',
      '/docs/..%2Fapi.md',
      '/docs/.hidden.md',
      '/docs/sub/api.md',
      '/',
      '/docs/api.txt',
    ]) {
      await expect(read(new URL(`https://scout.invalid${path}`)), path).rejects.toMatchObject({
        kind: 'upstream',
        message: expect.stringMatching(/^origin answered 404 \(Not Found\): Scout's docs have no \//),
      });
    }
  });
});
