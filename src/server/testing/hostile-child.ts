/**
 * A server in a child process for the hostile-input suite: the real composition root (fake models, the
 * scripted audit service), settings and server options from one JSON argument. Prints one JSON line
 * {"url": ...} when listening. Usage: hostile-child.ts <index> '<{"settings": {...}, "server": {...}}>'.
 */
import { closeOnSignals } from '../start.js';
import { FakeAuditService } from './fake-audit.js';
import { fakeModels } from './fake-models.js';
import { startTestServer } from './harness.js';

const [index, json] = process.argv.slice(2);
const config = JSON.parse(json!) as { settings?: Record<string, unknown>; server?: Record<string, unknown>; delayMs?: number };
const server = await startTestServer(index!, fakeModels(), { ...config.server, settings: config.settings ?? {} }, () => new FakeAuditService(config.delayMs ?? 1));
closeOnSignals(server, (line) => process.stderr.write(`${line}\n`));
process.stdout.write(`${JSON.stringify({ url: server.url })}\n`);
