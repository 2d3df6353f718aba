/**
 * The judge's answers on disk, so that a rerun (or a calibration run again) costs nothing: one JSON file
 * per request, named by the SHA-256 of (server, model, prompt, parameters), written atomically. Only the
 * server's reply is kept (content, log-probabilities, token counts): never a header, never the key.
 */
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileAtomic } from '../../util/atomic-file.js';
import type { ChatResult } from './chat.js';
import type { LlmParams } from './config.js';
import type { ChatMessage } from './prompt.js';

export function cacheKey(parts: { engine: string; server: string; model: string; messages: ChatMessage[]; params: LlmParams }): string {
  const promptHash = createHash('sha256').update(JSON.stringify(parts.messages)).digest('hex');
  return createHash('sha256').update(JSON.stringify({ engine: parts.engine, server: parts.server, model: parts.model, prompt: promptHash, params: parts.params })).digest('hex');
}

export class AnswerCache {
  constructor(readonly dir: string) {}

  private path(key: string): string {
    return join(this.dir, key.slice(0, 2), `${key}.json`);
  }

  async get(key: string): Promise<ChatResult | undefined> {
    const p = this.path(key);
    if (!existsSync(p)) return undefined;
    try {
      const v = JSON.parse(await readFile(p, 'utf8')) as ChatResult;
      return typeof v.content === 'string' ? v : undefined;
    } catch {
      // A torn or foreign file is a miss (it is rewritten after the request).
      return undefined;
    }
  }

  async set(key: string, value: ChatResult): Promise<void> {
    const p = this.path(key);
    await mkdir(join(this.dir, key.slice(0, 2)), { recursive: true });
    const { content, tokens, usage, servedBy } = value;
    await writeFileAtomic(p, JSON.stringify({ content, ...(tokens ? { tokens } : {}), usage, ...(servedBy ? { servedBy } : {}) }));
  }
}
