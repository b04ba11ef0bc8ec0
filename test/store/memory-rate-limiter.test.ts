import { createMemoryRateLimiter } from '../../src/store/memory/memory-rate-limiter.ts';
import { rateLimiterContract } from './store-contract.ts';

rateLimiterContract('memory', async (perMinute, now) => createMemoryRateLimiter(perMinute, now));
