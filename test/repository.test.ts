import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import semver from 'semver';
import { describe, expect, it } from 'vitest';
import { defined } from './helpers/defined.ts';

/**
 * What the repository says of itself must be true: the Node version it claims, the
 * dependencies it lists, the suites and files it points to.
 */

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  engines: { node: string };
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
};
const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as {
  packages: Record<
    string,
    {
      version?: string;
      engines?: { node?: string } | string[];
      optional?: boolean;
      dev?: boolean;
      os?: string[];
      cpu?: string[];
    }
  >;
};

function filesUnder(dir: string, exts: string[]): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name.startsWith('.')) continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...filesUnder(path, exts));
    else if (exts.some((e) => name.endsWith(e))) out.push(path);
  }
  return out;
}

const CODE = ['.ts', '.mjs', '.js'];
const read = (files: string[]): string => files.map((f) => readFileSync(f, 'utf8')).join('\n');
/** Imported, or a file of it resolved to be served (the dashboard's uPlot). */
const imports = (source: string, name: string): boolean =>
  new RegExp(
    `(?:from|import|resolve)\\s*\\(?\\s*['"]${name.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}(?:/[^'"]*)?['"]`,
  ).test(source);

/**
 * Third-party clients the compatibility tests drive unmodified (docs/compat.md), and what
 * they pull in, declare Node 22 though the code the tests run works on Node 20: the tests
 * prove it on every run. They are dev-only, so `npm ci --omit=dev` (a deployment) installs
 * none of them; `npm ci` prints an EBADENGINE warning for each, and nothing else may.
 */
const CLIENTS_UNDER_TEST = new Set([
  'node_modules/@mendable/firecrawl-js',
  'node_modules/firecrawl',
  'node_modules/@langchain/openai',
  'node_modules/@langchain/openai/node_modules/openai',
]);

describe('package.json tells the truth', () => {
  it('every installed package supports the oldest Node that `engines` allows (bar the dev-only clients under test)', () => {
    const oldest = semver.minVersion(pkg.engines.node)!.version;
    const refusing: string[] = [];
    for (const [path, entry] of Object.entries(lock.packages)) {
      const range = entry.engines && !Array.isArray(entry.engines) ? entry.engines.node : undefined;
      if (path === '' || range === undefined) continue;
      if (entry.dev === true && CLIENTS_UNDER_TEST.has(path)) continue;
      // Platform packages for other systems are never installed here.
      if (entry.os && !entry.os.includes(process.platform)) continue;
      if (entry.cpu && !entry.cpu.includes(process.arch)) continue;
      if (!semver.satisfies(oldest, range)) refusing.push(`${path}@${entry.version} needs node ${range}`);
    }
    expect(refusing, `package.json says node ${pkg.engines.node}`).toEqual([]);
  });

  it('lists no dependency that nothing imports', () => {
    const product = read([...filesUnder(join(ROOT, 'src'), CODE), ...filesUnder(join(ROOT, 'bin'), CODE)]);
    const everything =
      product + read([...filesUnder(join(ROOT, 'test'), CODE), ...filesUnder(join(ROOT, 'bench'), CODE)]);
    const unused = Object.keys(pkg.dependencies).filter((name) => !imports(product, name));
    expect(unused, 'runtime dependencies not imported by src/ or bin/').toEqual([]);
    // Tools run by scripts rather than imported; @types/* are checked against their package.
    const tools = new Set(['typescript', 'vitest', '@biomejs/biome']);
    // Peers named so npm can resolve them: @langchain/community's optional peers would
    // otherwise pull @langchain/core 0.3 beside the 1.x it needs (npm ERESOLVE).
    const peers = new Set(['@langchain/core']);
    const unusedDev = Object.keys(pkg.devDependencies).filter((name) => {
      if (tools.has(name) || peers.has(name)) return false;
      const typed = name.startsWith('@types/')
        ? name.slice('@types/'.length).replace(/^(.+)__(.+)$/, '@$1/$2')
        : undefined;
      if (typed === 'node') return false;
      return !imports(everything, typed ?? name);
    });
    expect(unusedDev, 'dev dependencies nothing uses').toEqual([]);
  });
});

describe('the repository points only at what it holds', () => {
  const texts = [
    join(ROOT, 'README.md'),
    join(ROOT, 'package.json'),
    ...filesUnder(join(ROOT, 'docs'), ['.md']),
    ...filesUnder(join(ROOT, '.ci'), ['', '.mjs']),
    ...filesUnder(join(ROOT, 'src'), CODE),
    ...filesUnder(join(ROOT, 'bench'), CODE),
    ...filesUnder(join(ROOT, 'bin'), CODE),
    ...filesUnder(join(ROOT, 'test'), CODE),
  ].filter((f) => !f.endsWith('repository.test.ts'));

  it('names no file outside it (../shared is not part of the product)', () => {
    const outside = texts.filter((f) => /\.\.\/shared\/|shared\/(?:design|spec|eval)\//.test(readFileSync(f, 'utf8')));
    expect(outside.map((f) => relative(ROOT, f))).toEqual([]);
  });

  it('links only documents that exist, among them docs/architecture.md', () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    expect(readme).toContain('(docs/architecture.md)');
    const links = [...readme.matchAll(/\]\(((?:docs|src|bench|test)\/[^)#]+)\)/g)].map((m) =>
      defined(m[1], 'a link path'),
    );
    expect(links.filter((l) => !existsSync(join(ROOT, l)))).toEqual([]);
  });

  it('claims test suites (SCOUT_TEST_* settings) only when a test reads them', () => {
    const tests = read(filesUnder(join(ROOT, 'test'), CODE).filter((f) => !f.endsWith('repository.test.ts')));
    const claimed = new Set(
      texts.flatMap((f) => [...readFileSync(f, 'utf8').matchAll(/SCOUT_TEST_[A-Z_]+/g)].map((m) => m[0])),
    );
    expect([...claimed].filter((name) => !tests.includes(`.${name}`) && !tests.includes(`['${name}']`))).toEqual([]);
  });
});
