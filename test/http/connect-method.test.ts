import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorBody } from '../../src/schemas/error.ts';
import { expectShape } from '../helpers/strict-schemas.ts';
import { startTestScout, type TestScout } from '../helpers/test-scout.ts';
import { openRaw, parseResponse, within } from './raw-socket.ts';

let t: TestScout;
beforeAll(async () => {
  t = await startTestScout();
});
afterAll(() => t.close());

async function raw(request: string) {
  const c = await openRaw(t.baseUrl);
  c.socket.write(request);
  await within(c.closed, 10_000, 'the answer and the close');
  return parseResponse(c.received());
}

describe('CONNECT', () => {
  it('is answered 405 in the Error shape, then the connection is closed', async () => {
    const res = await raw('CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n');
    expect(res.status).toBe(405);
    expectShape(ErrorBody, res.body);
    expect(res.body.error.status).toBe(405);
    expect(res.body.error.message).toMatch(/CONNECT is not allowed/);
    expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(res.headers).toHaveProperty('allow');
  });
});
