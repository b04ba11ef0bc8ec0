import type { Logger } from 'pino';
import type { ScoutConfig } from '../scout-settings.ts';
import { createContentStage } from '../content/content-stage.ts';
import type { Closers } from '../domain/closers.ts';
import type { PageFetcher } from '../fetch/fetch-page.ts';
import type { ManagedSearchBackend } from '../providers/registry.ts';
import { FETCH_LIMITS } from '../schemas/fetch.ts';
import { anonymousBudgetUnits } from '../config/anonymous-settings.ts';
import { createAnonymousBudget } from '../search/anonymous-budget.ts';
import { createSearchBudget, type SearchBudget } from '../search/search-budget.ts';
import { createSearchService, type SearchService } from '../search/search-service.ts';
import type { Sponsored } from '../sponsored/create-sponsored.ts';
import type { Storage } from './assemble-storage.ts';

export interface Searching {
  budget: SearchBudget;
  /** The anonymous tier's share of the budget, while the tier is on (SCOUT_ANONYMOUS_RPM). */
  anonymousBudget: SearchBudget | undefined;
  search: SearchService;
}

/** The search service: the providers' backend, the month's budget, the content stage (advanced depth) and the sponsored stage. */
export function assembleSearch(
  config: Pick<ScoutConfig, 'monthlySearchBudget' | 'anonymousRpm' | 'anonymousBudgetShare'>,
  deps: {
    logger: Logger;
    storage: Storage;
    backend: ManagedSearchBackend;
    sponsored: Sponsored;
    fetch: PageFetcher['fetch'];
  },
  closers: Closers,
): Searching {
  const { logger, storage, backend, sponsored, fetch } = deps;
  const content = createContentStage({
    // The whole page (the largest max_chars): passages are chosen from all of it.
    fetchPage: (url, signal, caller) => fetch({ url, maxChars: FETCH_LIMITS.maxChars.max, signal, caller }),
    onPageError: (url, err) => logger.debug({ url, reason: String(err) }, 'advanced search: page skipped'),
  });
  const budget = createSearchBudget(storage.stores.budget, config.monthlySearchBudget, () => new Date(), {
    shared: storage.sharedBudget,
  });
  // After the app (closed first) and before the store: the unspent lease goes back.
  closers.add(() => budget.close());
  const anonymousBudget =
    config.anonymousRpm > 0
      ? createAnonymousBudget(storage.stores.budget, anonymousBudgetUnits(config), () => new Date(), {
          shared: storage.sharedBudget,
        })
      : undefined;
  if (anonymousBudget) closers.add(() => anonymousBudget.close());
  const search = createSearchService({
    backend,
    budget,
    ...(anonymousBudget ? { anonymousBudget } : {}),
    content,
    sponsored: sponsored.stage,
  });
  return { budget, anonymousBudget, search };
}
