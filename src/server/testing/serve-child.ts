/**
 * A server in a child process, for the signal and crash tests: fake models, the scripted audit service,
 * the real signal handling. Usage: serve-child.ts <index> <dataDir> <delayMs> <graceMs>; prints one JSON
 * line {"url": ...} when listening.
 */
import { closeOnSignals } from '../start.js';
import { FakeAuditService } from './fake-audit.js';
import { fakeModels } from './fake-models.js';
import { startTestServer } from './harness.js';

const [index, dataDir, delayMs, graceMs] = process.argv.slice(2);
const audit = new FakeAuditService(Number(delayMs));
const server = await startTestServer(index!, fakeModels(), { dataDir, shutdownGraceMs: Number(graceMs) }, () => audit);
closeOnSignals(server, (line) => process.stderr.write(`${line}\n`));
process.stdout.write(`${JSON.stringify({ url: server.url })}\n`);
