/** The search answer worker (answer-pool.ts starts it): reads one provider answer at a time, off the event loop. */
import { parentPort } from 'node:worker_threads';
import { serveWorkerTasks } from '../util/worker-pool.js';
import { readAnswer, type AnswerTask } from './answer-readers.js';

serveWorkerTasks(parentPort!, { read: (t: AnswerTask) => readAnswer(t) });
