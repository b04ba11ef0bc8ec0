/**
 * `node generate-client-types.mjs <openapi.json> <out.ts>`: what a client author runs, with
 * openapi-typescript's programmatic API. A child process of test/http/openapi-client.test.ts,
 * so the module hook it needs stays out of the test runner.
 */
import { register } from 'node:module';
import { readFile, writeFile } from 'node:fs/promises';

const [input, output] = process.argv.slice(2);
if (!input || !output) throw new Error('usage: generate-client-types.mjs <openapi.json> <out.ts>');
// Loaded first so a missing side-by-side TypeScript is named as such, not as a broken hook.
const { version } = (await import('@typescript/typescript6')).default;
register('./openapi-typescript-hook.mjs', import.meta.url);
const { default: openapiTS, astToString } = await import('openapi-typescript');
const ast = await openapiTS(JSON.parse(await readFile(input, 'utf8')));
await writeFile(output, `// openapi-typescript (TypeScript ${version} API)\n${astToString(ast)}`);
