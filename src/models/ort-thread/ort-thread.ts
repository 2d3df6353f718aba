/**
 * An onnxruntime session that runs in a worker thread.
 *
 * Why: onnxruntime-node's `session.run` returns a promise but computes on the calling thread (it defers
 * the synchronous native run by one setImmediate). In the server that thread is the event loop, so each
 * embedding batch (~20-100 ms of GEMMs per batch of passages on the 2-core box, several per verify) held
 * every other request, /v1/health included, behind it: with a large audit and 8 verifies running, health
 * waited seconds (docs/RESULTS-HISTORY.md, "HTTP service"). In a worker the native run blocks only that thread.
 *
 * One worker per session, one run at a time in it (what the in-thread session did too: concurrent runs
 * would only fight over the same cores). Inputs and outputs are transferred, not copied. The worker keeps
 * the process alive only while a run is pending, so a command that forgets to dispose still exits.
 */
import type { Worker } from 'node:worker_threads';
import { startModuleWorker } from '../../util/module-worker.js';

export type TensorType = 'float32' | 'int32' | 'int64';
type TypedArray = Float32Array | Int32Array | BigInt64Array;

export interface PlainTensor {
  type: TensorType;
  data: TypedArray;
  dims: number[];
}

/** What the worker is built with: the model's bytes and the session options onnxruntime takes. */
export interface OrtThreadInit {
  model: Uint8Array;
  options: Record<string, unknown>;
}

interface Pending {
  resolve: (out: Record<string, PlainTensor>) => void;
  reject: (e: Error) => void;
}

export class OrtThreadSession {
  private next = 1;
  private readonly pending = new Map<number, Pending>();
  private failure: Error | undefined;

  private constructor(private readonly worker: Worker) {
    worker.on('message', (m: { id: number; outputs?: Record<string, PlainTensor>; error?: string }) => {
      const p = this.pending.get(m.id);
      if (!p) return;
      this.pending.delete(m.id);
      if (!this.pending.size) this.worker.unref();
      if (m.error !== undefined) p.reject(new Error(m.error));
      else p.resolve(m.outputs!);
    });
    const fail = (e: Error) => {
      this.failure ??= e;
      for (const p of this.pending.values()) p.reject(e);
      this.pending.clear();
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`the onnxruntime worker thread exited (code ${code})`)));
    // After the listeners: adding a 'message' listener refs the worker's port again.
    worker.unref();
  }

  /** Starts the worker and creates the session in it; rejects with onnxruntime's own message if that fails. */
  static async create(init: OrtThreadInit): Promise<OrtThreadSession> {
    // A copy the worker owns: the caller's bytes may be a view into a larger buffer it still uses.
    const model = init.model.slice();
    const worker = startModuleWorker(import.meta.url, 'ort-thread-worker', { model, options: init.options });
    await new Promise<void>((resolve, reject) => {
      const onMessage = (m: { ready?: true; error?: string; id?: number }) => {
        if (m.id !== undefined) return;
        worker.off('message', onMessage);
        worker.off('error', reject);
        if (m.error !== undefined) reject(new Error(m.error));
        else resolve();
      };
      worker.on('message', onMessage);
      worker.once('error', reject);
    }).catch(async (e: Error) => {
      await worker.terminate();
      throw e;
    });
    return new OrtThreadSession(worker);
  }

  /** Runs the graph on `feeds` (their buffers are transferred to the worker: do not reuse them). */
  run(feeds: Record<string, PlainTensor>): Promise<Record<string, PlainTensor>> {
    if (this.failure) return Promise.reject(this.failure);
    const id = this.next++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.worker.ref();
      const transfer = [...new Set(Object.values(feeds).map((t) => t.data.buffer as ArrayBuffer))];
      this.worker.postMessage({ id, feeds }, transfer);
    });
  }

  async release(): Promise<void> {
    this.failure ??= new Error('the onnxruntime session was released');
    await this.worker.terminate();
  }
}
