import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestScout, type TestScout } from '../helpers/test-scout.ts';

/**
 * A client generated from the served /openapi.json compiles, with named types: what an
 * agent's author does with openapi-typescript (and openapi-fetch), checked by the project's
 * own TypeScript in child processes, each bounded in time.
 */

const run = promisify(execFile);
const require = createRequire(import.meta.url);
const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const GENERATOR = join(ROOT, 'test', 'helpers', 'generate-client-types.mjs');
const TSC = join(dirname(require.resolve('typescript/package.json')), 'bin', 'tsc');
const OPENAPI_FETCH = join(dirname(require.resolve('openapi-fetch/package.json')), 'dist', 'index.d.mts');

const CLIENT = `import createClient from 'openapi-fetch';
import type { components, paths } from './scout-api.js';

type Schemas = components['schemas'];
type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;

// Operations refer to the named shapes, not to copies of them.
export const named: [
  Equal<paths['/v1/search']['post']['requestBody']['content']['application/json'], Schemas['SearchRequest']>,
  Equal<paths['/v1/search']['post']['responses'][200]['content']['application/json'], Schemas['SearchResponse']>,
  Equal<paths['/v1/search']['get']['responses'][429]['content']['application/json'], Schemas['Error']>,
  Equal<paths['/v1/fetch']['post']['requestBody']['content']['application/json'], Schemas['FetchRequest']>,
  Equal<paths['/v1/fetch']['post']['responses'][200]['content']['application/json'], Schemas['FetchResponse']>,
  Equal<paths['/v1/usage']['get']['responses'][200]['content']['application/json'], Schemas['Usage']>,
  Equal<Schemas['SearchResponse']['results'][number], Schemas['Result']>,
  Equal<NonNullable<Schemas['Result']['incentive']>, Schemas['Incentive']>,
] = [true, true, true, true, true, true, true, true];

export const request: Schemas['SearchRequest'] = { query: 'postgres pooling', max_results: 5, include_domains: ['postgresql.org'] };
// @ts-expect-error unknown fields are refused (additionalProperties: false)
export const typo: Schemas['SearchRequest'] = { query: 'postgres pooling', max_result: 5 };
// @ts-expect-error search_depth is basic or advanced
export const depth: Schemas['SearchRequest'] = { query: 'postgres pooling', search_depth: 'deep' };

const scout = createClient<paths>({ baseUrl: 'http://127.0.0.1:8080', headers: { authorization: 'Bearer scout_key' } });

export async function organicUrls(query: string): Promise<string[]> {
  const { data, error } = await scout.POST('/v1/search', { body: { query, search_depth: 'advanced' } });
  if (error) throw new Error(\`\${error.error.status}: \${error.error.message}\`);
  return data.results.filter((r) => r.type === 'organic').map((r) => r.url);
}

export async function incentives(q: string): Promise<string[]> {
  const { data } = await scout.GET('/v1/search', { params: { query: { q, include_domains: ['a.example', 'b.example'] } } });
  return (data?.results ?? []).flatMap((r) => (r.incentive ? [r.incentive.kind + ': ' + r.incentive.benefit] : []));
}

export async function page(url: string): Promise<string | null> {
  const { data } = await scout.POST('/v1/fetch', { body: { url, max_chars: 20000 } });
  return data ? data.meta.content_type : null;
}

export async function pace(): Promise<number> {
  const { data, error } = await scout.GET('/v1/usage');
  if (error) throw new Error(error.error.message);
  return data.rate_limit.remaining > 0 ? 0 : data.rate_limit.retry_after_seconds + data.budget.units_left * 0;
}
`;

let t: TestScout;
let dir: string;
beforeAll(async () => {
  t = await startTestScout();
  dir = mkdtempSync(join(tmpdir(), 'scout-client-'));
});
afterAll(async () => {
  await t.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('a client generated from /openapi.json', () => {
  it('has the named types and compiles against openapi-fetch', async () => {
    const doc = await t.request('GET', '/openapi.json', { key: null });
    writeFileSync(join(dir, 'openapi.json'), doc.text);
    await run(process.execPath, [GENERATOR, join(dir, 'openapi.json'), join(dir, 'scout-api.ts')], { timeout: 60_000 });
    const types = readFileSync(join(dir, 'scout-api.ts'), 'utf8');
    for (const name of [
      'SearchRequest',
      'SearchResponse',
      'Result',
      'Incentive',
      'FetchRequest',
      'FetchResponse',
      'Error',
      'Usage',
    ]) {
      expect(types).toMatch(new RegExp(`^ {8}${name}: \\{$`, 'm'));
    }
    expect(types).toContain('"application/json": components["schemas"]["SearchRequest"]');

    writeFileSync(join(dir, 'client.ts'), CLIENT);
    writeFileSync(
      join(dir, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          strict: true,
          noEmit: true,
          target: 'ES2022',
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          lib: ['ES2022', 'DOM'],
          types: [],
          paths: { 'openapi-fetch': [OPENAPI_FETCH] },
        },
        files: ['client.ts'],
      }),
    );
    const tsc = await run(process.execPath, [TSC, '-p', join(dir, 'tsconfig.json')], { timeout: 60_000 }).catch(
      (e) => e,
    );
    expect(`${tsc.stdout ?? ''}${tsc.stderr ?? ''}`).toBe('');
    expect(tsc.code ?? 0).toBe(0);
  }, 120_000);
});
