import { Ajv } from 'ajv';
import type { TSchema } from '@sinclair/typebox';
import { DomainError } from '../domain/errors.ts';
import { AJV_OPTIONS } from './ajv-options.ts';
import { validationMessage, type ValidationIssue } from './validation-message.ts';

/**
 * A validator for values that do not arrive as a Fastify body (the GET search form is
 * converted to the POST shape first). Same Ajv options and messages as route validation.
 */
export function createValidator<T>(schema: TSchema, where: string, rename: Record<string, string> = {}) {
  const ajv = new Ajv({ ...AJV_OPTIONS, keywords: [...AJV_OPTIONS.keywords] });
  const check = ajv.compile(schema);
  return (value: unknown): T => {
    if (check(value)) return value as T;
    let message = validationMessage(check.errors?.[0] as ValidationIssue, schema, where);
    for (const [from, to] of Object.entries(rename)) message = message.replace(new RegExp(`^${from}\\b`), to);
    throw new DomainError('invalid', message);
  };
}
