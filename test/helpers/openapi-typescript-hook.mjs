/**
 * Module hook for generate-client-types.mjs: openapi-typescript 7 builds its output with the
 * classic compiler API (ts.factory, createPrinter), which TypeScript 7, this project's
 * compiler, does not ship. Its `typescript` import is pointed at @typescript/typescript6,
 * the TypeScript 6 published to run side by side with 7; nothing else is redirected.
 */
export async function resolve(specifier, context, nextResolve) {
  if (specifier === 'typescript' && context.parentURL?.includes('/node_modules/openapi-typescript/')) {
    return nextResolve('@typescript/typescript6', context);
  }
  return nextResolve(specifier, context);
}
