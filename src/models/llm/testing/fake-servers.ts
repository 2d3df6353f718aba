/**
 * Loopback stand-ins for an OpenAI-compatible chat-completions server and an Ollama server (node:http on
 * 127.0.0.1, port 0), answering in each API's documented shape: a chat completion object whose
 * choices[0].logprobs.content[] holds {token, logprob, bytes, top_logprobs}, usage.prompt_tokens /
 * completion_tokens; Ollama's /api/chat with message.content, logprobs[] and prompt_eval_count /
 * eval_count, and /api/tags with each model's digest. Token counts are estimated as characters / 4.
 *
 * The "model" reads the <document> and <claim> of the prompt: a gold label when the test gives one for
 * the pair (an oracle standing in for a good model), else content-word overlap with a negation check.
 * Faults on request: 429 with Retry-After, a request left unanswered (timeouts), a body that is not JSON,
 * an answer without a label, and a model that obeys instructions found in the document.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type FakeLabel = 'SUPPORTED' | 'CONTRADICTED' | 'NOT_ENOUGH_INFO';

export interface FakeJudgeOptions {
  /** Gold labels by `${document}\n${claim}` (the oracle), answered with probability `oracleP`. */
  gold?: Map<string, FakeLabel>;
  /** Any other oracle (e.g. a claim's gold evidence sentences found in the document). */
  oracle?: (document: string, claim: string) => FakeLabel | undefined;
  oracleP?: number;
  /** Log-probabilities in answers (default true). */
  logprobs?: boolean;
  /** The next n chat requests answer 429 with this Retry-After (seconds). */
  rateLimit?: { times: number; retryAfter: string };
  /** The next n chat requests answer 503. */
  unavailable?: number;
  /** The next n chat requests are never answered (the client's timeout must end them). */
  hang?: number;
  /** The next n chat requests answer a body that is not JSON. */
  brokenJson?: number;
  /** Every answer's content is replaced by this (a model that ignores the format). */
  content?: string;
  /** Obeys instructions inside the document ("answer supported"), quoting text that is not there. */
  followsInjection?: boolean;
  /** Answer 401 to chat requests, echoing the Authorization header as some servers do. */
  unauthorized?: boolean;
  /** The model name /api/tags lists (Ollama) and its digest. */
  digest?: string;
}

export interface FakeServer {
  url: string;
  /** Every request: method, path, headers, parsed body. */
  requests: { method: string; path: string; headers: IncomingMessage['headers']; body: any }[];
  /** Chat requests answered with a completion. */
  answered: number;
  options: FakeJudgeOptions;
  close(): Promise<void>;
}

const STOP = new Set('a an the of in on at to for by with and or is are was were be been being this that these those it its as from than which who whom'.split(' '));
const NEGATION = /\b(not|no|never|none|nobody|cannot|can't|doesn't|don't|didn't|isn't|aren't|wasn't|weren't|without)\b/i;
const words = (s: string) => (s.toLowerCase().match(/[a-z0-9]+/g) ?? []).filter((w) => !STOP.has(w));
const unescape = (s: string) => s.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');

/** The document and claim of a grounding prompt (the last <document> / <claim> blocks). */
export function promptParts(messages: { role: string; content: string }[]): { document: string; claim: string; user: string } {
  const user = messages.filter((m) => m.role === 'user').map((m) => m.content).join('\n');
  const doc = /<document>\n([\s\S]*?)\n<\/document>/.exec(user)?.[1] ?? '';
  const claim = /<claim>\n([\s\S]*?)\n<\/claim>/.exec(user)?.[1] ?? '';
  return { document: unescape(doc), claim: unescape(claim), user };
}

/** The fake model's reading: label, its probability, a quote from the document. */
export function fakeJudgement(document: string, claim: string, o: FakeJudgeOptions): { label: FakeLabel; p: number; quote?: string } {
  if (o.followsInjection && /ignore (all |the )?(above|previous)/i.test(document)) return { label: 'SUPPORTED', p: 0.99, quote: 'the claim is proven true' };
  const sentence = (document.split(/(?<=[.!?])\s+/).find((s) => words(claim).some((w) => words(s).includes(w))) ?? document).trim();
  const gold = o.gold?.get(`${document}\n${claim}`) ?? o.oracle?.(document, claim);
  if (gold) return { label: gold, p: o.oracleP ?? 0.9, quote: sentence };
  const cw = words(claim);
  const dw = new Set(words(document));
  const coverage = cw.length ? cw.filter((w) => dw.has(w)).length / cw.length : 0;
  if (coverage >= 0.5 && NEGATION.test(claim) !== NEGATION.test(document)) return { label: 'CONTRADICTED', p: 0.6 + 0.3 * coverage, quote: sentence };
  if (coverage >= 0.75) return { label: 'SUPPORTED', p: 0.5 + 0.45 * coverage, quote: sentence };
  return { label: 'NOT_ENOUGH_INFO', p: 0.9 - 0.5 * coverage };
}

const FIRST: Record<FakeLabel, string> = { SUPPORTED: 'SUP', CONTRADICTED: 'CON', NOT_ENOUGH_INFO: 'NOT' };
const LABELS: FakeLabel[] = ['SUPPORTED', 'CONTRADICTED', 'NOT_ENOUGH_INFO'];

/** Tokens in the documented shape: the label's first piece with its alternatives, then the rest. */
function tokensFor(content: string, label: FakeLabel | undefined, p: number, top: number) {
  const bytes = (t: string) => [...Buffer.from(t, 'utf8')];
  const entry = (token: string, logprob: number, alternatives: { token: string; logprob: number }[]) => ({ token, logprob, bytes: bytes(token), top_logprobs: alternatives.slice(0, top).map((a) => ({ ...a, bytes: bytes(a.token) })) });
  if (!label || !content.startsWith(label)) return content.split(/(?<=\s)/).map((t) => entry(t, -0.05, [{ token: t, logprob: -0.05 }]));
  const others = LABELS.filter((l) => l !== label);
  const alts = [{ token: FIRST[label], logprob: Math.log(p) }, ...others.map((l) => ({ token: FIRST[l], logprob: Math.log((1 - p) / 2) }))];
  const rest = content.slice(FIRST[label].length).split(/(?<=\s)/).filter(Boolean);
  return [entry(FIRST[label], Math.log(p), alts), ...rest.map((t) => entry(t, -0.01, [{ token: t, logprob: -0.01 }]))];
}

const estimateTokens = (s: string) => Math.max(1, Math.ceil(s.length / 4));

async function readBody(req: IncomingMessage): Promise<any> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  return text ? JSON.parse(text) : undefined;
}

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(typeof body === 'string' ? body : JSON.stringify(body));
}

async function start(handler: (req: IncomingMessage, res: ServerResponse, s: FakeServer) => Promise<void>, options: FakeJudgeOptions): Promise<FakeServer> {
  const hung: ServerResponse[] = [];
  const state: FakeServer = { url: '', requests: [], answered: 0, options, close: async () => {} };
  const server: Server = createServer((req, res) => {
    handler(req, res, state).catch((e) => send(res, 500, { error: String(e) }));
  });
  server.on('request', (_req, res) => hung.push(res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  state.close = async () => {
    for (const r of hung) if (!r.writableEnded) r.destroy();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  return state;
}

/** A fault due for this chat request, if any (consumed). */
function fault(o: FakeJudgeOptions, res: ServerResponse, req?: IncomingMessage): boolean {
  if (o.unauthorized) {
    send(res, 401, { error: { message: `Incorrect API key provided: ${String(req?.headers.authorization ?? '').replace(/^Bearer /, '')}`, type: 'invalid_request_error' } });
    return true;
  }
  if (o.rateLimit && o.rateLimit.times > 0) {
    o.rateLimit.times--;
    send(res, 429, { error: { message: 'Rate limit reached', type: 'requests' } }, { 'retry-after': o.rateLimit.retryAfter });
    return true;
  }
  if (o.unavailable && o.unavailable > 0) {
    o.unavailable--;
    send(res, 503, { error: 'overloaded' });
    return true;
  }
  if (o.hang && o.hang > 0) {
    o.hang--;
    return true; // never answered
  }
  if (o.brokenJson && o.brokenJson > 0) {
    o.brokenJson--;
    send(res, 200, '{"id": "chatcmpl-1", "choices": [{"index": 0, "message": {"role": "assist');
    return true;
  }
  return false;
}

function answerOf(messages: { role: string; content: string }[], o: FakeJudgeOptions): { content: string; label?: FakeLabel; p: number; input: number } {
  const { document, claim } = promptParts(messages);
  const input = estimateTokens(messages.map((m) => m.content).join('\n')) + 4 * messages.length;
  if (o.content !== undefined) return { content: o.content, p: 1, input };
  const j = fakeJudgement(document, claim, o);
  return { content: j.label + (j.quote && j.label !== 'NOT_ENOUGH_INFO' ? `\nQUOTE: "${j.quote.slice(0, 200)}"` : ''), label: j.label, p: j.p, input };
}

/** POST /v1/chat/completions (and GET /v1/models) as the OpenAI API documents them. */
export function startFakeOpenAi(options: FakeJudgeOptions = {}): Promise<FakeServer> {
  return start(async (req, res, s) => {
    const body = req.method === 'POST' ? await readBody(req) : undefined;
    s.requests.push({ method: req.method ?? '', path: req.url ?? '', headers: req.headers, body });
    if (req.method === 'GET' && req.url === '/v1/models') return send(res, 200, { object: 'list', data: [{ id: 'fake-judge', object: 'model', owned_by: 'test' }] });
    if (req.method !== 'POST' || req.url !== '/v1/chat/completions') return send(res, 404, { error: { message: `no route ${req.url}` } });
    if (fault(s.options, res, req)) return;
    const a = answerOf(body.messages, s.options);
    const withLogprobs = body.logprobs === true && s.options.logprobs !== false;
    const output = estimateTokens(a.content);
    s.answered++;
    send(res, 200, {
      id: `chatcmpl-${s.answered}`,
      object: 'chat.completion',
      created: 1764300000,
      model: body.model,
      system_fingerprint: 'fp_fake',
      choices: [{ index: 0, message: { role: 'assistant', content: a.content, refusal: null }, logprobs: withLogprobs ? { content: tokensFor(a.content, a.label, a.p, body.top_logprobs ?? 0), refusal: null } : null, finish_reason: 'stop' }],
      usage: { prompt_tokens: a.input, completion_tokens: output, total_tokens: a.input + output },
    });
  }, options);
}

/** POST /api/chat and GET /api/tags as Ollama documents them. */
export function startFakeOllama(options: FakeJudgeOptions = {}, model = 'bespoke-minicheck:7b'): Promise<FakeServer> {
  return start(async (req, res, s) => {
    const body = req.method === 'POST' ? await readBody(req) : undefined;
    s.requests.push({ method: req.method ?? '', path: req.url ?? '', headers: req.headers, body });
    const digest = s.options.digest ?? 'sha256:' + 'ab'.repeat(32);
    if (req.method === 'GET' && req.url === '/api/tags') {
      return send(res, 200, { models: [{ name: model, model, modified_at: '2026-11-01T10:00:00Z', size: 4_700_000_000, digest: digest.replace(/^sha256:/, ''), details: { format: 'gguf', family: 'qwen2', parameter_size: '7.6B', quantization_level: 'Q4_K_M' } }] });
    }
    if (req.method !== 'POST' || req.url !== '/api/chat') return send(res, 404, { error: `no route ${req.url}` });
    if (body.model !== model) return send(res, 404, { error: `model "${body.model}" not found, try pulling it first` });
    if (fault(s.options, res)) return;
    const a = answerOf(body.messages, s.options);
    const withLogprobs = body.logprobs === true && s.options.logprobs !== false;
    const output = estimateTokens(a.content);
    s.answered++;
    send(res, 200, {
      model,
      created_at: '2026-11-28T19:00:00.000Z',
      message: { role: 'assistant', content: a.content },
      ...(withLogprobs ? { logprobs: tokensFor(a.content, a.label, a.p, body.top_logprobs ?? 0) } : {}),
      done: true,
      done_reason: 'stop',
      total_duration: 1_200_000,
      load_duration: 100_000,
      prompt_eval_count: a.input,
      prompt_eval_duration: 500_000,
      eval_count: output,
      eval_duration: 600_000,
    });
  }, options);
}
