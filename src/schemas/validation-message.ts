import type { TSchema } from '@sinclair/typebox';
import { RULE } from './rule.ts';

/** The subset of an Ajv error this module reads. */
export interface ValidationIssue {
  keyword: string;
  instancePath: string;
  schemaPath: string;
  params: Record<string, unknown>;
  message?: string;
}

const ruleOf = (schema: TSchema, field: string): string | undefined =>
  (schema.properties?.[field] as Record<string, unknown> | undefined)?.[RULE] as string | undefined;

const fieldOf = (issue: ValidationIssue): string | undefined =>
  /^#\/properties\/([^/]+)/.exec(issue.schemaPath)?.[1] ?? issue.instancePath.split('/')[1];

/**
 * Turns the first Ajv issue into one sentence that names the field and the rule, e.g.
 * "max_results must be an integer from 1 to 20". `where` is "request body" or "query string".
 */
export function validationMessage(issue: ValidationIssue, schema: TSchema, where: string): string {
  const allowed = Object.keys(schema.properties ?? {}).join(', ');
  if (issue.keyword === 'additionalProperties') {
    return `unknown field "${String(issue.params.additionalProperty)}" in the ${where}; allowed fields are ${allowed}`;
  }
  if (issue.keyword === 'required') {
    const field = String(issue.params.missingProperty);
    const rule = ruleOf(schema, field);
    return rule ? `${field} is required and ${rule}` : `${field} is required`;
  }
  if (issue.instancePath === '' && issue.keyword === 'type') {
    return `the ${where} must be a JSON object with the fields ${allowed}`;
  }
  const field = fieldOf(issue);
  if (field) {
    const rule = ruleOf(schema, field);
    if (rule) return `${field} ${rule}`;
    return `${field} ${issue.message ?? 'is invalid'}`;
  }
  return `the ${where} is invalid: ${issue.message ?? issue.keyword}`;
}
