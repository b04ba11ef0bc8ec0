import type { FastifyInstance } from 'fastify';
import swagger from '@fastify/swagger';
import { EXAMPLES } from '../schemas/examples.ts';
import { nameComponents } from './openapi-components.ts';

/**
 * OpenAPI 3.1 from the route schemas themselves (one source: src/schemas). Served at
 * GET /openapi.json without a key. Titled schemas become named components with examples
 * (openapi-components.ts), so generated clients get named types.
 */
export async function registerOpenApi(app: FastifyInstance, serverUrl: string): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Scout',
        version: '1.0.0',
        description: 'Web search and page fetch for AI agents. Free for agents; funded by labelled sponsored results.',
      },
      servers: [{ url: serverUrl }],
      components: {
        securitySchemes: {
          bearer: { type: 'http', scheme: 'bearer' },
          apiKey: { type: 'apiKey', in: 'header', name: 'x-api-key' },
        },
      },
      security: [{ bearer: [] }, { apiKey: [] }],
    },
    transformObject: (documents) =>
      'openapiObject' in documents
        ? nameComponents(documents.openapiObject as Record<string, unknown>, EXAMPLES)
        : documents.swaggerObject,
  });
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
}
