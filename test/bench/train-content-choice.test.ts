import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { bodyLogOdds, type ChoiceModel, checkModel } from '../../src/extract/html/content-choice.ts';
import { type FixturePage, removeSets, wcxbEntry, writeSet } from './wcxb-fixture.ts';

afterAll(removeSets);

const run = promisify(execFile);
const script = fileURLToPath(new URL('../../bench/train-content-choice.ts', import.meta.url));

const sentence = (topic: string, i: number) =>
  `The ${topic} report number ${i} explains in plain words what happened, who was there and what comes next for everyone involved.`;

/** An article beside a list of other stories: Readability's pick is the better reading. */
function articlePage(i: number): FixturePage {
  const paragraphs = [1, 2, 3].map((n) => sentence(`harbour ${i}`, n).repeat(2));
  const others = [1, 2, 3, 4, 5, 6].map(
    (n) => `<li><a href="/s/${n}">Another headline of the week, number ${n}</a></li>`,
  );
  const html = `<!doctype html><html><head><title>Harbour ${i}</title></head><body>
<article><h1>Harbour ${i}</h1>${paragraphs.map((p) => `<p>${p}</p>`).join('')}</article>
<div><ul>${others.join('')}</ul></div></body></html>`;
  return { id: `a${i}`, html, entry: wcxbEntry('article', paragraphs.join('\n')) };
}

/** A category page: an intro, then items that are the page; the whole body is the better reading. */
function listingPage(i: number): FixturePage {
  const intro = [1, 2].map((n) => sentence(`catalogue ${i}`, n).repeat(2));
  const items = [1, 2, 3, 4, 5, 6].map((n) => [
    `Item ${n} of shelf ${i}`,
    `A short line on item ${n}, sturdy and light.`,
  ]);
  const html = `<!doctype html><html><head><title>Shelf ${i}</title></head><body><main>
<div>${intro.map((p) => `<p>${p}</p>`).join('')}</div>
<div class="grid">${items.map(([name, line]) => `<div class="card"><h3><a href="/i/${name}">${name}</a></h3><p>${line}</p></div>`).join('')}</div>
</main></body></html>`;
  return { id: `l${i}`, html, entry: wcxbEntry('listing', [...intro, ...items.flat()].join('\n')) };
}

describe('train:content-choice', () => {
  // A set this small has little hessian weight in all: the least a leaf needs is lowered with it.
  it('scores both readings of each development page, cross-validates, and writes a model the extractor accepts', async () => {
    const pages = [1, 2, 3, 4, 5, 6, 7, 8].flatMap((i) => [articlePage(i), listingPage(i)]);
    const dir = writeSet(pages);
    const out = join(dir, 'model.json');
    const { stdout } = await run(
      process.execPath,
      ['--import', 'tsx', script, dir, '--cv', '--trees', '10', '--min-child-weight', '0.01', '--out', out],
      {
        timeout: 120_000,
      },
    );
    const count = Number(/^(\d+) pages with a choice/m.exec(stdout)?.[1]);
    // The held-out quarter (by hash of the id) is left out.
    expect(count).toBeGreaterThan(8);
    expect(count).toBeLessThan(16);
    expect(stdout).toContain('5-fold cross-validated word F1:');
    expect(stdout).toContain('| type | pages | always article | always body | best per page | learned choice |');
    // On its training pages the choice beats both fixed choices.
    const rows = stdout.split('On its own training pages:')[1]?.split('\n') ?? [];
    const all =
      rows
        .find((r) => r.startsWith('| all |'))
        ?.split('|')
        .map((c) => Number(c.trim())) ?? [];
    const [, , , article = 0, body = 0, best = 0, learned = 0] = all;
    expect(learned).toBeGreaterThan(Math.max(article, body));
    expect(learned).toBeCloseTo(best, 2);
    const model = checkModel(JSON.parse(readFileSync(out, 'utf8')) as ChoiceModel);
    expect(model.trees).toHaveLength(10);
    expect(
      Number.isFinite(
        bodyLogOdds(
          model,
          model.features.map(() => 0),
        ),
      ),
    ).toBe(true);
  });

  it('says how to call it when no set is given', async () => {
    await expect(run(process.execPath, ['--import', 'tsx', script], { timeout: 60_000 })).rejects.toMatchObject({
      code: 2,
      stderr: expect.stringContaining('usage: npm run train:content-choice'),
    });
  });
});
