import { DomainError } from '../../src/domain/errors.ts';

/** The DomainError `p` rejects with; anything else (or no rejection) fails the test. */
export async function domainFailure(p: Promise<unknown>): Promise<DomainError> {
  try {
    await p;
  } catch (e) {
    if (e instanceof DomainError) return e;
    throw e;
  }
  throw new Error('expected a DomainError');
}
