import type { FastifyInstance } from 'fastify';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DOC_FILE } from '../../domain/docs-url.ts';
import { DomainError } from '../../domain/errors.ts';

/**
 * GET /docs/<file>.md: Scout's own documentation as markdown, no key, for people: the
 * starter corpus's results are at `https://scout.invalid/docs/<file>.md` (the same path),
 * which Scout's fetch answers itself (domain/docs-url.ts).
 */
export function docsRoutes(app: FastifyInstance, docsDir: string): void {
  app.get<{ Params: { file: string } }>('/docs/:file', { schema: { hide: true } }, async (request, reply) => {
    const { file } = request.params;
    // One path segment of plain characters: no traversal, no hidden files.
    if (!DOC_FILE.test(file)) throw new DomainError('not_found', `no document ${file.slice(0, 100)}`);
    let text: string;
    try {
      text = await readFile(join(docsDir, file), 'utf8');
    } catch {
      throw new DomainError('not_found', `no document ${file}`);
    }
    return reply.type('text/markdown; charset=utf-8').send(text);
  });
}
