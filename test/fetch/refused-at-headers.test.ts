import { describe, expect, it } from 'vitest';
import { refusedAtHeaders } from '../../src/fetch/refused-at-headers.ts';

describe('refusedAtHeaders', () => {
  it.each(['image/png', 'video/mp4; codecs=avc1', 'audio/mpeg', 'application/zip'])(
    'refuses %s before the body',
    (type) => {
      expect(refusedAtHeaders(type)?.kind).toBe('unsupported_media');
    },
  );

  it.each([
    null,
    'text/html; charset=utf-8',
    'application/pdf',
    'application/json',
    'application/octet-stream',
    'application/x-unknown',
    'garbage',
  ])('leaves %s to extraction, which reads the bytes', (type) => {
    expect(refusedAtHeaders(type)).toBeUndefined();
  });
});
