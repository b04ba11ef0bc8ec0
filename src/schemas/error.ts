import { Type, type Static } from '@sinclair/typebox';

/** SPEC 2.7: the only shape an error ever has. */
export const ErrorBody = Type.Object(
  {
    error: Type.Object(
      {
        status: Type.Number({ description: 'Equals the HTTP status code.' }),
        message: Type.String({ description: 'What went wrong and what to change.' }),
      },
      { additionalProperties: false },
    ),
  },
  { additionalProperties: false, title: 'Error' },
);
export type ErrorBody = Static<typeof ErrorBody>;
