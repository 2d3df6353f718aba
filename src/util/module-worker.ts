/**
 * Starts a worker thread on a module that sits beside the caller (`./name.js` in dist, `./name.ts` under
 * tsx in tests and benchmarks). Node 20 does not run the parent's `--import` hooks in a worker, so under
 * tsx the worker registers tsx itself before importing its entry.
 */
import { extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker, type ResourceLimits } from 'node:worker_threads';

/**
 * `callerUrl`: the caller's import.meta.url; `name`: the worker module's name without extension;
 * `resourceLimits`: the worker's heap limits (a worker over them dies with ERR_WORKER_OUT_OF_MEMORY, the
 * process lives on).
 */
export function startModuleWorker(callerUrl: string, name: string, workerData: unknown, resourceLimits?: ResourceLimits): Worker {
  const ext = extname(fileURLToPath(callerUrl));
  const entry = new URL(`./${name}${ext}`, callerUrl);
  const limits = resourceLimits ? { resourceLimits } : {};
  if (ext !== '.ts') return new Worker(entry, { workerData, ...limits });
  const tsx = import.meta.resolve('tsx/esm/api');
  return new Worker(`import(${JSON.stringify(tsx)}).then((m) => m.register()).then(() => import(${JSON.stringify(entry.href)}))`, { eval: true, workerData, ...limits });
}
