/**
 * What an OpenSearch failure says to a user, and which failures are worth one more try.
 *
 * The client's own message is `type: [root type] Reason: ...` from `error.root_cause`; when a node has
 * just left the cluster, a search can fail with `search_phase_execution_exception`, reason
 * "all shards failed", status 503 and an *empty* root_cause, so the client's message is
 * "search_phase_execution_exception: " and names nothing. Seen live when a node was killed during a
 * query stream: the next query, a moment later, was answered from the promoted replicas.
 */

interface ShardFailure {
  index?: string;
  shard?: number;
  node?: string;
  reason?: { type?: string; reason?: string };
}

interface ErrorBody {
  status?: number;
  error?: { type?: string; reason?: string; root_cause?: { type?: string; reason?: string }[]; failed_shards?: ShardFailure[] } | string;
}

function shardName(s: ShardFailure): string {
  return `shard ${s.index ?? '?'}[${s.shard ?? '?'}]${s.node ? ` on node ${s.node}` : ''}`;
}

/**
 * A read answered from only some shards: HTTP 200 with `_shards.failed > 0` (the Search API's
 * allow_partial_search_results is true by default). Seen live when a node was killed during a query
 * stream: a query in the moment before its replicas were promoted came back with 7 of its 10 hits.
 * Thrown by the store's read so that it is retried and explained like any transient failure.
 */
export class PartialAnswerError extends Error {
  override name = 'PartialAnswerError';
}

function bodyOf(e: unknown): ErrorBody | undefined {
  const meta = (e as { meta?: { body?: unknown } } | null)?.meta;
  const body = meta?.body;
  return body && typeof body === 'object' ? (body as ErrorBody) : undefined;
}

function statusOf(e: unknown): number | undefined {
  const body = bodyOf(e);
  if (typeof body?.status === 'number') return body.status;
  const code = (e as { meta?: { statusCode?: unknown }; statusCode?: unknown } | null)?.meta?.statusCode;
  return typeof code === 'number' ? code : undefined;
}

/** Node left, shards relocating, connection dropped: the same request may well succeed a moment later. */
export function isTransientSearchFailure(e: unknown): boolean {
  if (e instanceof PartialAnswerError) return true;
  const name = (e as { name?: unknown } | null)?.name;
  if (name === 'ConnectionError' || name === 'NoLivingConnectionsError' || name === 'TimeoutError') return true;
  const status = statusOf(e);
  if (status === 503 || status === 502 || status === 504) return true;
  const error = bodyOf(e)?.error;
  const type = typeof error === 'object' ? error.type : undefined;
  if (type === 'search_phase_execution_exception' || type === 'no_shard_available_action_exception' || type === 'node_disconnected_exception' || type === 'node_not_connected_exception') {
    // A bad query (parse error, bad field) fails every shard too, with status 400: that one is not transient.
    return status === undefined || status >= 500;
  }
  return false;
}

/** One line naming the cluster's own reasons: type, reason, root causes and the first failed shards. */
export function explainOpenSearchError(e: unknown): string {
  if (e instanceof PartialAnswerError) return e.message;
  const error = bodyOf(e)?.error;
  const status = statusOf(e);
  if (error && typeof error === 'object') {
    const parts: string[] = [];
    parts.push([error.type, error.reason].filter(Boolean).join(': ') || 'error');
    const causes = (error.root_cause ?? []).map((c) => [c.type, c.reason].filter(Boolean).join(': ')).filter((c) => c && c !== parts[0]);
    if (causes.length) parts.push(`root cause ${[...new Set(causes)].slice(0, 2).join('; ')}`);
    const shards = (error.failed_shards ?? []).slice(0, 2).map((s) => `${shardName(s)}: ${[s.reason?.type, s.reason?.reason].filter(Boolean).join(' ')}`);
    if (shards.length) parts.push(shards.join('; '));
    else if (!causes.length) parts.push('no shard copy answered (a node may have just left the cluster)');
    return `OpenSearch${status ? ` HTTP ${status}` : ''}: ${parts.join('; ')}`;
  }
  if (typeof error === 'string') return `OpenSearch${status ? ` HTTP ${status}` : ''}: ${error}`;
  const message = (e as Error | null)?.message ?? String(e);
  return `OpenSearch: ${message || (e as { name?: string } | null)?.name || 'request failed'}`;
}

/** The answer's `_shards` when it shows failed or missing shards: a PartialAnswerError naming them, else undefined. */
export function partialShards(response: unknown): PartialAnswerError | undefined {
  const s = (response as { body?: { _shards?: { total?: number; successful?: number; skipped?: number; failed?: number; failures?: ShardFailure[] } } } | null)?.body?._shards;
  if (!s || typeof s.total !== 'number') return undefined;
  const failed = s.failed ?? 0;
  const successful = s.successful ?? 0;
  if (failed === 0 && successful + (s.skipped ?? 0) >= s.total) return undefined;
  const where = (s.failures ?? []).slice(0, 2).map((f) => `${shardName(f)}${f.reason?.type ? `: ${f.reason.type}` : ''}`);
  return new PartialAnswerError(`OpenSearch answered from ${successful} of ${s.total} shards (${failed} failed${where.length ? `: ${where.join('; ')}` : ''}); some shard copies are unavailable: check the cluster's health (GET _cluster/health) and try again`);
}
