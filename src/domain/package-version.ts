import { readFileSync } from 'node:fs';

/** package.json next to the sources, not in process.cwd(): `npx scout` runs from any folder. */
const PACKAGE_JSON = new URL('../../package.json', import.meta.url);

/** Scout's version: `scout --version`, the MCP server's name and version, the tracing resource. */
export function packageVersion(): string {
  return (JSON.parse(readFileSync(PACKAGE_JSON, 'utf8')) as { version: string }).version;
}
