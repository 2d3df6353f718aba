/**
 * One JSON request to a judge's server, made robust: a timeout per attempt, retries with exponential
 * backoff on 429, 5xx, timeouts and refused connections, honouring the server's Retry-After (seconds or
 * an HTTP date, capped). Other 4xx answers fail at once with the server's message. Errors never carry the
 * request headers (the API key).
 */
export class LlmHttpError extends Error {
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'LlmHttpError';
  }
}

export interface RetryPolicy {
  retries: number;
  timeoutMs: number;
  /** First backoff; doubles each retry (plus jitter). */
  baseDelayMs?: number;
  /** Longest wait, whatever Retry-After asks. */
  maxDelayMs?: number;
  signal?: AbortSignal;
  /** Called before each wait (progress lines). */
  onRetry?: (info: { attempt: number; delayMs: number; reason: string }) => void;
}

const RETRY_STATUS = (s: number) => s === 429 || s === 408 || s >= 500;

/** Retry-After in ms: delta-seconds or an HTTP date; undefined when absent or unreadable. */
export function retryAfterMs(header: string | null, now = Date.now()): number | undefined {
  if (!header) return undefined;
  const s = Number(header.trim());
  if (Number.isFinite(s) && s >= 0) return s * 1000;
  const t = Date.parse(header);
  return Number.isFinite(t) ? Math.max(0, t - now) : undefined;
}

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const t = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(t);
      reject(signal!.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });

/** Where a URL points, for messages: origin and path only. */
export function shownUrl(url: string): string {
  const u = new URL(url);
  return `${u.origin}${u.pathname}`;
}

/** Header values (a bearer key) blanked out of a server's text before it reaches a message: some servers echo the key. */
function redactor(headers: Record<string, string> = {}): (text: string) => string {
  const secrets = Object.values(headers)
    .map((v) => v.replace(/^Bearer\s+/i, ''))
    .filter((v) => v.length >= 8);
  return (text) => secrets.reduce((t, s) => t.split(s).join('[key]'), text);
}

export async function requestJson(url: string, init: { method?: 'GET' | 'POST'; body?: unknown; headers?: Record<string, string> }, policy: RetryPolicy): Promise<unknown> {
  const redact = redactor(init.headers);
  const base = policy.baseDelayMs ?? 500;
  const cap = policy.maxDelayMs ?? 60_000;
  for (let attempt = 0; ; attempt++) {
    policy.signal?.throwIfAborted();
    let reason: string;
    let wait: number | undefined;
    let status: number | undefined;
    const timeout = AbortSignal.timeout(policy.timeoutMs);
    const signal = policy.signal ? AbortSignal.any([policy.signal, timeout]) : timeout;
    try {
      const res = await fetch(url, {
        method: init.method ?? 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json', 'user-agent': 'veracite-llm-judge/1', ...(init.headers ?? {}) },
        ...(init.body !== undefined ? { body: JSON.stringify(init.body) } : {}),
        signal,
      });
      const text = await res.text();
      if (res.ok) {
        try {
          return JSON.parse(text) as unknown;
        } catch {
          // A server that answers 200 with a broken body: a retry may get a whole one.
          reason = `${shownUrl(url)}: the answer is not JSON ("${redact(text).slice(0, 60).replace(/\s+/g, ' ')}")`;
          status = res.status;
        }
      } else {
        status = res.status;
        const detail = redact(text).slice(0, 200).replace(/\s+/g, ' ');
        reason = `${shownUrl(url)}: HTTP ${res.status}${detail ? ` (${detail})` : ''}`;
        if (!RETRY_STATUS(res.status)) {
          const hint = res.status === 401 || res.status === 403 ? ': check the API key variable (--api-key-env)' : res.status === 404 ? ': check --base-url and --model' : '';
          throw new LlmHttpError(reason + hint, res.status);
        }
        wait = retryAfterMs(res.headers.get('retry-after'));
      }
    } catch (e) {
      if (e instanceof LlmHttpError) throw e;
      if (policy.signal?.aborted) throw policy.signal.reason;
      const err = e as Error & { cause?: { code?: string } };
      reason = timeout.aborted ? `${shownUrl(url)}: no answer within ${policy.timeoutMs} ms` : `${shownUrl(url)}: ${err.cause?.code ?? err.message}`;
    }
    if (attempt >= policy.retries) throw new LlmHttpError(`${reason} (after ${attempt + 1} attempts)`, status);
    const backoff = base * 2 ** attempt * (1 + Math.random() * 0.25);
    const delayMs = Math.min(cap, wait ?? backoff);
    policy.onRetry?.({ attempt: attempt + 1, delayMs, reason });
    await sleep(delayMs, policy.signal);
  }
}
