/** Orders strings by UTF-16 code unit: SQLite's default (binary) collation for the ASCII ids and ISO times stored. */
export const byText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
