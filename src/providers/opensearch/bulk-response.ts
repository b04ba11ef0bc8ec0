import { asArray, asRecord } from '../adapter-kit.ts';
import { errorInfo, type ClusterErrorInfo } from './cluster-client.ts';

/** One action's result in a `_bulk` answer. */
export interface BulkItemResult {
  status: number;
  /** Present when the action failed. */
  error?: ClusterErrorInfo;
}

/**
 * Thread-pool and indexing-pressure rejections: the cluster is busy, not refusing the
 * document. OpenSearch names them `rejected_execution_exception`, Elasticsearch
 * `es_rejected_execution_exception`; both come with status 429.
 */
export const isRejection = (status: number, type: string | undefined): boolean =>
  status === 429 || type === 'rejected_execution_exception' || type === 'es_rejected_execution_exception';

/**
 * The `items` of a `_bulk` answer, one per action sent and in the same order (documented:
 * `{"took", "errors", "items": [{"index": {"_id", "status", "error"?…}}…]}`), or undefined
 * when the answer is not that shape (so no document is reported written on a guess).
 */
export function bulkItems(body: unknown, sent: number, secrets: readonly string[]): BulkItemResult[] | undefined {
  const items = asArray(asRecord(body)?.items);
  if (!items || items.length !== sent) return undefined;
  const out: BulkItemResult[] = [];
  for (const item of items) {
    // Keyed by the action: `index` here (create, update and delete answer alike).
    const result = asRecord(Object.values(asRecord(item) ?? {})[0]);
    if (!result || typeof result.status !== 'number') return undefined;
    out.push(
      result.error === undefined
        ? { status: result.status }
        : { status: result.status, error: errorInfo(result.error, '', secrets) },
    );
  }
  return out;
}
