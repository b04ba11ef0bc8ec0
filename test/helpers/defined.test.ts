import { describe, expect, it } from 'vitest';
import { defined, only } from './defined.ts';

describe('defined', () => {
  it('returns the value, null and falsy values included', () => {
    expect(defined(0, 'a count')).toBe(0);
    expect(defined('', 'a name')).toBe('');
    expect(defined(null, 'a row')).toBeNull();
  });

  it('throws naming what was missing', () => {
    expect(() => defined([1][1], 'the second item')).toThrow('expected the second item, got undefined');
  });
});

describe('only', () => {
  it('returns the one element', () => {
    expect(only(['a'], 'name')).toBe('a');
    expect(only([undefined], 'slot')).toBeUndefined();
  });

  it('throws giving how many there were', () => {
    expect(() => only([], 'result')).toThrow('expected exactly one result, got 0');
    expect(() => only([1, 2], 'result')).toThrow('expected exactly one result, got 2');
  });
});
