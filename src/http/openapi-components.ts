import { isDeepStrictEqual } from 'node:util';

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const REF = '#/components/schemas/';

/**
 * Names the document's shared shapes: every schema of an operation that has a `title`
 * (SearchRequest, Result, Error, …) becomes `#/components/schemas/<title>`, with its
 * examples, and each place it appeared holds a `$ref` to it, so client generators
 * (openapi-typescript and the like) produce named types.
 *
 * Only the document changes. Route schemas stay inline and free of `$id`: Fastify, the GET
 * form's validator and the tests compile them as they are, and one Ajv instance refuses two
 * schemas with the same `$id` (SearchResponse carries Result, which tests also compile).
 */
export function nameComponents(document: Json, examples: Record<string, unknown[]>): Json {
  const doc = structuredClone(document);
  const components = (isObject(doc.components) ? doc.components : (doc.components = {})) as Json;
  const schemas = (isObject(components.schemas) ? components.schemas : (components.schemas = {})) as Json;
  const named = new Map<string, Json>();

  const hoist = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(hoist);
    if (!isObject(node)) return node;
    const out: Json = {};
    for (const [k, v] of Object.entries(node)) out[k] = hoist(v);
    if (typeof out.title !== 'string') return out;
    const name = out.title;
    const seen = named.get(name);
    // Two different shapes under one title would make the named type lie for one of them.
    if (seen !== undefined && !isDeepStrictEqual(seen, out))
      throw new Error(`two different schemas are titled ${name}`);
    named.set(name, out);
    return { $ref: REF + name };
  };

  for (const item of Object.values(isObject(doc.paths) ? doc.paths : {})) {
    for (const op of Object.values(isObject(item) ? item : {})) {
      if (isObject(op)) dropCopiedDescriptions(op);
    }
  }
  doc.paths = hoist(doc.paths);

  for (const name of requestBodies(doc.paths)) {
    const schema = named.get(name);
    if (schema) named.set(name, withoutPropertyDefaults(schema));
  }
  for (const [name, schema] of named) schemas[name] = examples[name] ? { ...schema, examples: examples[name] } : schema;
  const orphans = Object.keys(examples).filter((name) => !named.has(name));
  if (orphans.length > 0) throw new Error(`examples for schemas no operation uses: ${orphans.join(', ')}`);
  return doc;
}

/**
 * @fastify/swagger copies a response's description into its schema as well; the copy is
 * the response's (403 "not at a public address"), not the shape's, and would make the
 * Error of every status a different schema.
 */
function dropCopiedDescriptions(operation: Json): void {
  for (const response of Object.values(isObject(operation.responses) ? operation.responses : {})) {
    if (!isObject(response) || !isObject(response.content)) continue;
    for (const media of Object.values(response.content)) {
      if (isObject(media) && isObject(media.schema) && media.schema.description === response.description)
        delete media.schema.description;
    }
  }
}

/** Names of the components that operations take as their JSON request body. */
function requestBodies(paths: unknown): Set<string> {
  const names = new Set<string>();
  for (const item of Object.values(isObject(paths) ? paths : {})) {
    for (const op of Object.values(isObject(item) ? item : {})) {
      const body =
        isObject(op) && isObject(op.requestBody) && isObject(op.requestBody.content) ? op.requestBody.content : {};
      for (const media of Object.values(body)) {
        const ref = isObject(media) && isObject(media.schema) ? media.schema.$ref : undefined;
        if (typeof ref === 'string' && ref.startsWith(REF)) names.add(ref.slice(REF.length));
      }
    }
  }
  return names;
}

/**
 * A request component states its defaults in the descriptions only ("default 10"). Given
 * `default`, openapi-typescript (with its default options) types the property as always
 * present, which is right for a response and, in a component shared by every use, would
 * make each client send max_results and search_depth. Scout applies the defaults itself.
 */
function withoutPropertyDefaults(schema: Json): Json {
  if (!isObject(schema.properties)) return schema;
  const properties: Json = {};
  for (const [k, v] of Object.entries(schema.properties)) {
    if (isObject(v) && 'default' in v) {
      const { default: _dropped, ...rest } = v;
      properties[k] = rest;
    } else properties[k] = v;
  }
  return { ...schema, properties };
}
