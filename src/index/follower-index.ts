import { ConfigError } from '../config/load-config.ts';
import type { IndexDocumentStore } from '../store/ports.ts';
import { ChangeFollower } from './change-follower.ts';
import type { LocalIndexApi } from './local-index-api.ts';
import { DEFAULT_RANKER_BUDGET_BYTES } from './local-index.ts';
import type { LocalHit, LocalSearch } from './local-index-types.ts';
import { planSearch, searchInMemory, type RankWeights } from './memory-search.ts';
import { StoreIndexWriter } from './store-index-writer.ts';

export interface FollowerIndexOptions {
  /** As LocalIndexOptions: weight of the adjacent-terms phrase score. Default 0.25. */
  proximityWeight?: number;
  /** As LocalIndexOptions: BM25 leaders the proximity bonus may reorder. Default 100. */
  rerankWindow?: number;
  /**
   * SCOUT_INDEX_MEMORY_MB in bytes: what the ranker may hold in memory, texts included (a
   * follower keeps them); past it, sealed postings spill to a temporary file. Here there is
   * no FTS5 to fall back to, so 0 is refused. Default DEFAULT_RANKER_BUDGET_BYTES.
   */
  memoryBudgetBytes?: number;
  /** Pause between reads of the store's change sequence. Default 250 ms. */
  pollMs?: number;
  /** Told `ready` when the first load ends (with its duration). */
  onRankerChange?: (status: { state: string; documents: number; ms?: number }) => void;
  /** The store could not be read (once until it can again); searches keep answering from memory. */
  onStoreError?: (err: unknown) => void;
  /** The store can be read again. */
  onStoreRecovered?: () => void;
}

/** The message naming the setting when ranking in memory is turned off. */
const RANKER_OFF_REASON =
  'SCOUT_INDEX_MEMORY_MB=0 turns off ranking in memory, the only ranking of a local index kept in PostgreSQL (SCOUT_DATABASE_URL): give it a budget';

/**
 * A local index whose documents live in a shared store (PostgreSQL) and which ranks them
 * in this process's memory, with the same ranker, tokens and bm25() as the embedded index
 * (memory-search.ts), so both answer alike for the same documents. The ranker follows the
 * store's change sequence (change-follower.ts): a write by any replica or `scout index` is
 * searchable here within pollMs plus the time to apply it; a write through this instance
 * before its promise resolves. Searches are synchronous and never touch the store.
 */
export class FollowerIndex extends StoreIndexWriter implements LocalIndexApi {
  readonly #follower: ChangeFollower;
  readonly #weights: RankWeights;
  readonly #onRankerChange: FollowerIndexOptions['onRankerChange'];
  #closed = false;

  private constructor(store: IndexDocumentStore, options: FollowerIndexOptions) {
    super(store);
    this.#weights = { proximityWeight: options.proximityWeight ?? 0.25, rerankWindow: options.rerankWindow ?? 100 };
    this.#onRankerChange = options.onRankerChange;
    this.#follower = new ChangeFollower(store, {
      pollMs: options.pollMs ?? 250,
      budgetBytes: options.memoryBudgetBytes ?? DEFAULT_RANKER_BUDGET_BYTES,
      ...(options.onStoreError ? { onError: options.onStoreError } : {}),
      ...(options.onStoreRecovered ? { onRecovered: options.onStoreRecovered } : {}),
    });
  }

  /**
   * Loads every document into memory, then follows the store. Refuses (ConfigError, one
   * line naming the setting) a budget of 0.
   */
  static async open(store: IndexDocumentStore, options: FollowerIndexOptions = {}): Promise<FollowerIndex> {
    if (options.memoryBudgetBytes === 0) throw new ConfigError(RANKER_OFF_REASON);
    const index = new FollowerIndex(store, options);
    const start = performance.now();
    await index.#follower.catchUp();
    index.#onRankerChange?.({
      state: 'ready',
      documents: index.#follower.ranker.size,
      ms: Math.round(performance.now() - start),
    });
    index.#follower.start();
    return index;
  }

  /** Best hits first, ranked in memory as the embedded index ranks them. Never throws on the query text. */
  search(q: LocalSearch): LocalHit[] {
    const plan = planSearch(q);
    if (plan === undefined) return [];
    // Undefined only for a query word of more tokens than any 400-character query makes.
    return searchInMemory(this.#follower.ranker, plan, this.#weights) ?? [];
  }

  /** The last change applied: equal on two replicas means equal answers (result caches key by it). */
  version(): string {
    return `seq.${this.#follower.seq}`;
  }

  /** Reads and applies every change committed so far, now (tests; after this instance's writes). */
  refresh(): Promise<void> {
    return this.#follower.catchUp();
  }

  /** Loaded at open. */
  startRanker(): void {}

  /** Always ranked in memory: writes through this instance are applied before they resolve, others within pollMs. */
  syncRanker(): boolean {
    return !this.#closed;
  }

  rankerStatus(): { state: string; documents: number } {
    const state = this.#closed ? 'off' : 'ready';
    return { state, documents: this.#follower.ranker.size };
  }

  override async close(): Promise<void> {
    this.#closed = true;
    await this.#follower.close();
    await super.close();
  }

  /** This instance's write is committed: searchable here before the write resolves. */
  protected override async written(): Promise<void> {
    // A failed read is reported by the follower (onStoreError); the write itself stands.
    await this.#follower.catchUp().catch(() => undefined);
  }
}

/** Opens a local index over a document store (see FollowerIndex). */
export const openFollowerIndex = (
  store: IndexDocumentStore,
  options: FollowerIndexOptions = {},
): Promise<FollowerIndex> => FollowerIndex.open(store, options);
