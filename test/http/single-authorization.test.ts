import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorBody } from '../../src/schemas/error.ts';
import { expectShape } from '../helpers/strict-schemas.ts';
import { startTestScout, type TestScout } from '../helpers/test-scout.ts';
import { openRaw, parseResponse, within } from './raw-socket.ts';

const ADMIN = 'admin-token-of-at-least-24-characters';
let t: TestScout;
beforeAll(async () => {
  t = await startTestScout({ SCOUT_ADMIN_TOKEN: ADMIN });
});
afterAll(() => t.close());

/** Sends `request` raw (fetch() would join repeated headers) and returns the parsed answer. */
async function raw(request: string) {
  const c = await openRaw(t.baseUrl);
  c.socket.write(request);
  await within(c.closed, 10_000, 'the answer');
  return parseResponse(c.received());
}

const twice = (first: string, second: string) => `Authorization: ${first}\r\nAuthorization: ${second}\r\n`;

describe('more than one Authorization header', () => {
  it.each([
    [
      'the admin API, the admin token first',
      'GET /admin/v1/campaigns',
      twice(`Bearer ${ADMIN}`, 'Bearer someone-else'),
    ],
    [
      'the admin API, the admin token second',
      'GET /admin/v1/campaigns',
      twice('Bearer someone-else', `Bearer ${ADMIN}`),
    ],
    ['an API route', 'GET /v1/usage', twice('Bearer k1', 'Bearer k2')],
    ['a route without a key', 'GET /healthz', twice('Bearer k1', 'Bearer k2')],
    ['the docs', 'GET /docs/getting-started.md', twice('Basic a', 'Basic b')],
  ])('is refused with 401 on %s', async (_name, line, headers) => {
    const res = await raw(`${line} HTTP/1.1\r\nHost: a\r\n${headers}Connection: close\r\n\r\n`);
    expect(res.status).toBe(401);
    expectShape(ErrorBody, res.body);
    expect(res.body.error).toEqual({ status: 401, message: 'send one Authorization header; this request has 2' });
  });

  it('one admin token still works', async () => {
    const res = await raw(
      `GET /admin/v1/campaigns HTTP/1.1\r\nHost: a\r\nAuthorization: Bearer ${ADMIN}\r\nConnection: close\r\n\r\n`,
    );
    expect(res.status).toBe(200);
  });
});
