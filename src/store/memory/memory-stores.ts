import type { Config } from '../../config/settings.ts';
import type { SponsoredStores, Stores } from '../ports.ts';
import { createMemoryAdEventStore } from './memory-ad-event-store.ts';
import { createMemoryBudgetStore } from './memory-budget-store.ts';
import { createMemoryCampaignStore } from './memory-campaign-store.ts';
import { createMemoryCrawlJobStore } from './memory-crawl-job-store.ts';
import { createMemoryKeyStore } from './memory-key-store.ts';
import { createMemoryRateLimiter } from './memory-rate-limiter.ts';
import { createMemorySecretStore } from './memory-secret-store.ts';

/** Keys, budget and rate limiter held in this process only: nothing survives it. */
export function createMemoryStores(config: Pick<Config, 'rateLimitRpm'>, now: () => number = Date.now): Stores {
  return {
    keys: createMemoryKeyStore(),
    budget: createMemoryBudgetStore(),
    crawlJobs: createMemoryCrawlJobStore(),
    rateLimiter: createMemoryRateLimiter(config.rateLimitRpm, now),
    async ping() {},
    async close() {},
  };
}

/** Campaigns and their events held in this process only; events are priced from these campaigns. */
export function createMemorySponsoredStores(): SponsoredStores {
  const campaigns = createMemoryCampaignStore();
  return {
    campaigns,
    events: createMemoryAdEventStore((id) => campaigns.pricing(id)),
    secrets: createMemorySecretStore(),
    async close() {},
  };
}
