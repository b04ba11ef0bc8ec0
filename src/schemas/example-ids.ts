/** The request id every example answer carries. */
export const REQUEST_ID = '3f1c9a52-7d4e-4b0a-9c61-2e8f5b7d4a10';
