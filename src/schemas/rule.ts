/**
 * `x-rule` annotates a request property with the sentence the caller sees when the value is
 * refused ("max_results must be an integer from 1 to 20"). It lives beside the constraint so
 * the two cannot drift, and OpenAPI readers see it as a vendor extension.
 */
export const RULE = 'x-rule';

export const rule = (text: string) => ({ [RULE]: text });
