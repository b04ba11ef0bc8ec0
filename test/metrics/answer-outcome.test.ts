import { describe, expect, it } from 'vitest';
import { DomainError } from '../../src/domain/errors.ts';
import { answerOutcome } from '../../src/metrics/answer-outcome.ts';

describe('answerOutcome: what Scout did, beside the status it sent', () => {
  it('separates an origin or provider failing from Scout failing', () => {
    expect(answerOutcome(200)).toBe('ok');
    expect(answerOutcome(302)).toBe('ok');
    expect(answerOutcome(404)).toBe('client_error');
    expect(answerOutcome(429, new DomainError('rate_limited', 'x'))).toBe('client_error');
    expect(answerOutcome(502, new DomainError('upstream', 'origin answered 404 (Not Found)'))).toBe('upstream_error');
    expect(answerOutcome(504, new DomainError('timeout', 'fetching the page took longer than 10 s'))).toBe(
      'upstream_error',
    );
    expect(
      answerOutcome(
        503,
        new DomainError('unavailable', 'the monthly free search budget (100 units) is exhausted', {
          reason: 'budget_exhausted',
        }),
      ),
    ).toBe('budget_exhausted');
    expect(answerOutcome(503, new DomainError('unavailable', 'the key store is unavailable; retry shortly'))).toBe(
      'server_error',
    );
    expect(answerOutcome(500)).toBe('server_error');
  });

  it('counts a compat shape remapping the same cause as the same outcome (432 and 402 budget, 408 timeout)', () => {
    const budget = new DomainError('unavailable', 'the monthly free search budget (100 units) is exhausted', {
      reason: 'budget_exhausted',
    });
    expect(answerOutcome(432, budget)).toBe('budget_exhausted');
    expect(answerOutcome(402, budget)).toBe('budget_exhausted');
    expect(answerOutcome(408, new DomainError('timeout', 'the page was not read within the timeout of 300 ms'))).toBe(
      'upstream_error',
    );
    expect(answerOutcome(400, new DomainError('invalid', 'format "screenshot" is not served'))).toBe('client_error');
  });
});
