/** Longest path segment the router matches to a parameter (Fastify's default, made explicit). */
export const PATH_SEGMENT_MAX = 100;
