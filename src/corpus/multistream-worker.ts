/** Worker thread of read-multistream.ts: decompresses and parses one share of a multistream dump a task. */
import { parentPort } from 'node:worker_threads';
import { serveWorkerTasks } from '../util/worker-pool.js';
import { readShare } from './multistream-share.js';

serveWorkerTasks(parentPort!, { readShare });
