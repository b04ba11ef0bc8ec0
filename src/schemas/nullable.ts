import { Type, type TSchema } from '@sinclair/typebox';

/** `t` or JSON null: a field that is always present, null when it has no value. */
export const Nullable = <T extends TSchema>(t: T) => Type.Union([t, Type.Null()]);
