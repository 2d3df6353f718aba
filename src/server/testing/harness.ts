/**
 * Test harness: a server on 127.0.0.1, port 0, around an index built once per test file, with fake or
 * real models and any audit service; plus small HTTP helpers (fetch over loopback, SSE reading).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SettingsInput } from '../../app/settings.js';
import { Veracite } from '../../app/veracite.js';
import type { VerifierModels } from '../../verify/verifier.js';
import type { AuditService } from '../audit-service.js';
import type { ServerOptions } from '../options.js';
import { startServer, type RunningServer } from '../start.js';
import { buildSampleIndex } from './sample-index.js';

export interface TestIndex {
  root: string;
  index: string;
  cleanup(): Promise<void>;
}

export async function makeTestIndex(prefix = 'veracite-serve-'): Promise<TestIndex> {
  const root = await mkdtemp(join(tmpdir(), prefix));
  const { dir } = await buildSampleIndex(root);
  return { root, index: dir, cleanup: () => rm(root, { recursive: true, force: true }) };
}

/**
 * A server through the composition root, as `veracite serve` builds it. The fake models fill the embedder
 * and entailment roles; the scorer (evidence selection and the audit's engine) comes from the settings,
 * by default 'lexical' (no model weights needed), the fake scorer only when `fakeScorer` is set.
 */
export async function startTestServer(
  index: string,
  models: VerifierModels,
  options: Partial<ServerOptions> & { settings?: SettingsInput; fakeScorer?: boolean } = {},
  audit?: () => AuditService,
): Promise<RunningServer> {
  const { settings = {}, fakeScorer, ...server } = options;
  const vc = await Veracite.open(
    { retrieval: { mode: 'bm25' }, ...settings, index: { dir: index }, models: { scorer: 'lexical', ...settings.models } },
    { models: { ...(models.embedder ? { embedder: models.embedder } : {}), entailment: models.entailment, ...(fakeScorer ? { scorer: models.scorer } : {}) } },
  );
  try {
    return await startServer({ port: 0, ...server }, vc, audit ? { audit: audit() } : {});
  } catch (e) {
    await vc.close();
    throw e;
  }
}

export async function postJson(url: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: typeof body === 'string' ? body : JSON.stringify(body) });
}

export interface SseEvent {
  event: string;
  id?: string;
  data: unknown;
}

/** Reads a server-sent event stream to its end (or until `stopAt` returns true). */
export async function readSse(url: string, opts: { headers?: Record<string, string>; stopAt?: (e: SseEvent) => boolean; onEvent?: (e: SseEvent) => void } = {}): Promise<SseEvent[]> {
  const res = await fetch(url, { headers: { accept: 'text/event-stream', ...opts.headers } });
  if (!res.ok || !res.body) throw new Error(`SSE ${url}: HTTP ${res.status}`);
  const events: SseEvent[] = [];
  const decoder = new TextDecoder();
  let buf = '';
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
    buf += decoder.decode(chunk, { stream: true });
    let end: number;
    while ((end = buf.indexOf('\n\n')) >= 0) {
      const block = buf.slice(0, end);
      buf = buf.slice(end + 2);
      const e: Partial<SseEvent> & { dataLines: string[] } = { dataLines: [] };
      for (const line of block.split('\n')) {
        if (line.startsWith('event: ')) e.event = line.slice(7);
        else if (line.startsWith('id: ')) e.id = line.slice(4);
        else if (line.startsWith('data: ')) e.dataLines.push(line.slice(6));
      }
      if (!e.event) continue; // retry: / comments
      const ev: SseEvent = { event: e.event, data: JSON.parse(e.dataLines.join('\n')) };
      if (e.id !== undefined) ev.id = e.id;
      events.push(ev);
      opts.onEvent?.(ev);
      if (opts.stopAt?.(ev)) return events;
    }
  }
  return events;
}
