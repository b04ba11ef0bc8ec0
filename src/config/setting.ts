import type { Parser } from './parsers.ts';

export interface Setting<T> {
  env: string;
  parse: Parser<T>;
  /** Raw default, parsed like a user value; '' means "unset". */
  default: string;
  description: string;
}

export const s = <T>(env: string, parse: Parser<T>, def: string, description: string): Setting<T> => ({
  env,
  parse,
  default: def,
  description,
});
