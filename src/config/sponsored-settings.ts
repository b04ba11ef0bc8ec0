/** Settings of the sponsored-results side, spread into the main table by settings.ts. */
export const sponsoredSettings = {} as const;
