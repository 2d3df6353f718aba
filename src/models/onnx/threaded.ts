/**
 * An ONNX NLI model or pair scorer that runs in a worker thread (issue 39): tokenizer and onnxruntime session
 * both live there, so a pulled profile's model (nli-base: ~100-200 ms of GEMMs per pair on CPU) never holds
 * the event loop; onnxruntime-node computes on the thread that calls it (ort-thread/ort-thread.ts says
 * why), and in the server that thread also answers /v1/health. Same readings as the in-thread model: the
 * worker runs the same class on the same files. One request at a time per worker (a second waits in the
 * worker's queue); the worker keeps the process alive only while a request is pending.
 */
import type { Worker } from 'node:worker_threads';
import { startModuleWorker } from '../../util/module-worker.js';
import type { EntailmentModel, EntailmentPair, EntailmentProbs, ModelInfo, PairScorer, ScoredPair } from '../types.js';
import { ModelLoadError, type ModelLoadErrorCode } from './errors.js';
import type { OnnxEntailmentOptions } from './entailment.js';
import type { OnnxPairScorerOptions } from './pair-scorer.js';

export interface ThreadedInit {
  kind: 'nli' | 'scorer';
  spec: string;
  options: OnnxEntailmentOptions | OnnxPairScorerOptions;
}

/** What tells a threaded model apart (the app's wiring is checked by it in tests). */
export interface ThreadedMark {
  readonly inWorker: true;
}

class ThreadedModel {
  private next = 1;
  private readonly pending = new Map<number, { resolve: (r: unknown) => void; reject: (e: Error) => void }>();
  private failure: Error | undefined;

  constructor(
    private readonly worker: Worker,
    readonly info: ModelInfo,
  ) {
    worker.on('message', (m: { id?: number; result?: unknown; error?: string }) => {
      if (m.id === undefined) return;
      const p = this.pending.get(m.id);
      if (!p) return;
      this.pending.delete(m.id);
      if (!this.pending.size) this.worker.unref();
      if (m.error !== undefined) p.reject(new Error(m.error));
      else p.resolve(m.result);
    });
    const fail = (e: Error) => {
      this.failure ??= e;
      for (const p of this.pending.values()) p.reject(e);
      this.pending.clear();
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`the model's worker thread exited (code ${code})`)));
    worker.unref();
  }

  static async start(init: ThreadedInit): Promise<ThreadedModel> {
    const worker = startModuleWorker(import.meta.url, 'threaded-worker', init);
    const info = await new Promise<ModelInfo>((resolve, reject) => {
      const onMessage = (m: { ready?: true; info?: ModelInfo; error?: string; name?: string; code?: string; id?: number }) => {
        if (m.id !== undefined) return;
        worker.off('message', onMessage);
        worker.off('error', reject);
        if (m.error === undefined) return resolve(m.info!);
        // The loader's own error, as the in-thread load would have thrown it.
        reject(m.name === 'ModelLoadError' && m.code ? new ModelLoadError(m.code as ModelLoadErrorCode, m.error) : new Error(m.error));
      };
      worker.on('message', onMessage);
      worker.once('error', reject);
    }).catch(async (e: Error) => {
      await worker.terminate();
      throw e;
    });
    return new ThreadedModel(worker, info);
  }

  call<T>(pairs: unknown[], signal?: AbortSignal): Promise<T> {
    if (this.failure) return Promise.reject(this.failure);
    if (signal?.aborted) return Promise.reject(signal.reason instanceof Error ? signal.reason : new Error('aborted'));
    if (!pairs.length) return Promise.resolve([] as T);
    const id = this.next++;
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (r: unknown) => void, reject });
      this.worker.ref();
      this.worker.postMessage({ id, pairs });
    });
  }

  async dispose(): Promise<void> {
    this.failure ??= new Error('the model was disposed');
    await this.worker.terminate();
  }
}

/** OnnxEntailmentModel.load in a worker thread. */
export async function loadThreadedEntailment(spec: string, options: OnnxEntailmentOptions = {}): Promise<EntailmentModel> {
  const t = await ThreadedModel.start({ kind: 'nli', spec, options });
  return { info: t.info, inWorker: true, predict: (pairs: EntailmentPair[], signal?: AbortSignal) => t.call<EntailmentProbs[]>(pairs, signal), dispose: () => t.dispose() } as EntailmentModel & ThreadedMark;
}

/** OnnxPairScorer.load in a worker thread. */
export async function loadThreadedPairScorer(spec: string, options: OnnxPairScorerOptions = {}): Promise<PairScorer> {
  const t = await ThreadedModel.start({ kind: 'scorer', spec, options });
  return { info: t.info, inWorker: true, score: (pairs: ScoredPair[], signal?: AbortSignal) => t.call<number[]>(pairs, signal), dispose: () => t.dispose() } as PairScorer & ThreadedMark;
}
