import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectShape } from '../helpers/strict-schemas.ts';
import { ErrorBody } from '../../src/schemas/error.ts';
import { startTestScout, type TestScout } from '../helpers/test-scout.ts';

let t: TestScout;
beforeAll(async () => {
  t = await startTestScout();
});
afterAll(() => t.close());

/** Sends raw bytes and returns the raw response (the server closes the connection). */
function raw(payload: string): Promise<string> {
  const { hostname, port } = new URL(t.baseUrl);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.end(payload));
    let out = '';
    socket.on('data', (c) => (out += c));
    socket.on('close', () => resolve(out));
    socket.on('error', reject);
  });
}

const parse = (response: string) => {
  const [head, body] = response.split('\r\n\r\n');
  return { status: Number(head!.split(' ')[1]), head: head!.toLowerCase(), body: JSON.parse(body!) };
};

describe('requests the HTTP parser refuses still get the Error shape', () => {
  it.each([
    ['a header line without a colon', 'GET /v1/search?q=x HTTP/1.1\r\nHost: a\r\nBad Header\r\n\r\n', 400],
    [
      'Content-Length and Transfer-Encoding together',
      'POST /v1/search HTTP/1.1\r\nHost: a\r\nContent-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n{}',
      400,
    ],
    ['a URL larger than the header limit', `GET /v1/search?q=${'a'.repeat(20_000)} HTTP/1.1\r\nHost: a\r\n\r\n`, 431],
  ])('%s', async (_name, payload, status) => {
    const res = parse(await raw(payload));
    expect(res.status).toBe(status);
    expectShape(ErrorBody, res.body);
    expect(res.body.error.status).toBe(status);
    expect(res.head).toMatch(/x-request-id: [0-9a-f-]{36}/);
  });
});

describe('a request without Host', () => {
  it('is 400 in the Error shape', async () => {
    const res = parse(await raw('GET /healthz HTTP/1.1\r\nConnection: close\r\n\r\n'));
    expect(res.status).toBe(400);
    expect(res.body.error.message).toContain('Host header');
  });
});
