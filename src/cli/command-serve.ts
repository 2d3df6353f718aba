/**
 * `veracite serve`: the HTTP API and the web interface over an index (src/server), and
 * `veracite annotations export`: the blind-comparison annotations the server collected, as JSONL or as
 * training pairs for `veracite train`.
 */
import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { InvalidArgumentError, Option, type Command } from 'commander';
import { annotationsPath, exportLines } from '../annotations/annotation-store.js';
import { annotationsToPairs, toEvidencePairs, toNliPairs } from '../learn/annotation-pairs.js';
import { AnnotationSchema } from '../annotations/types.js';
import { parseDuration, parseSize, resolveServerOptions } from '../server/options.js';
import { count, snapshotText } from './format.js';
import { openApp } from './open-app.js';
import { addOptions, DEFAULT_INDEX, oneOf, positiveInt, type OptionPick } from './options.js';

/** The server runs the same pipeline as verify and audit: every group that shapes it. */
const SERVE_OPTIONS: OptionPick = { index: ['index'], models: true, retrieval: true, verify: true, scoring: true, audit: true, sources: true, search: true, parse: true };

function port(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 65535) throw new InvalidArgumentError(`--port must be 0..65535 (got "${value}")`);
  return n;
}

function wrap<T>(name: string, parse: (v: string) => T) {
  return (value: string): T => {
    try {
      return parse(value);
    } catch (e) {
      throw new InvalidArgumentError(`${name}: ${(e as Error).message}`);
    }
  };
}

interface ServeFlags extends Record<string, unknown> {
  port: number;
  host: string;
  concurrency: number;
  queue?: number;
  bodyLimit: number;
  timeout: number;
  shutdownGrace: number;
  auditConcurrency: number;
  dataDir?: string;
  log?: boolean;
  token?: string;
  allowHost: string[];
  allowOrigin: string[];
  keepJobs: number;
  jobMaxAge: number;
}

function collect(value: string, previous: string[]): string[] {
  return [...previous, ...value.split(',').map((v) => v.trim()).filter(Boolean)];
}

export function registerServeCommand(program: Command): void {
  addOptions(
    program
      .command('serve')
      .description('HTTP API (/v1/...) and web interface (/) over an index: verify, check and audit citations, search, blind comparison')
      .option('--port <n>', 'port (0 = any free port)', port, 8080)
      .option('--host <host>', 'address to listen on', '127.0.0.1')
      .option('--concurrency <n>', 'verify / check / search requests running at once', positiveInt('--concurrency'), 2)
      .option('--queue <n>', 'requests waiting for a slot before new ones get 503 (default 8 x concurrency)', positiveInt('--queue'))
      .addOption(new Option('--body-limit <size>', 'largest request body, e.g. 2mb, 512kb').argParser(wrap('--body-limit', parseSize)).default(2 * 1024 * 1024, '2mb'))
      .addOption(new Option('--timeout <duration>', 'per-request deadline for verify / check / search (queue wait included)').argParser(wrap('--timeout', parseDuration)).default(30_000, '30s'))
      .addOption(
        new Option('--shutdown-grace <duration>', 'on SIGINT/SIGTERM, how long running audits may finish before they are saved as interrupted')
          .argParser(wrap('--shutdown-grace', parseDuration))
          .default(20_000, '20s'),
      )
      .option('--audit-concurrency <n>', 'audit jobs running at once', positiveInt('--audit-concurrency'), 1)
      .option('--data-dir <dir>', 'audit jobs and annotations (default <index>/server)')
      .option('--keep-jobs <n>', 'finished audit jobs kept (newest first); older ones are deleted with their input', positiveInt('--keep-jobs'), 200)
      .addOption(
        new Option('--job-max-age <duration>', 'finished audit jobs older than this are deleted with their input, e.g. 30d, 12h')
          .argParser(wrap('--job-max-age', parseDuration))
          .default(30 * 24 * 3_600_000, '30d'),
      )
      .addOption(
        new Option('--token <secret>', 'bearer token every /v1 request must carry (the web page: open /?token=<secret> once); required with a --host beyond loopback')
          .env('VERACITE_TOKEN'),
      )
      .option('--allow-host <name>', 'a Host name to answer besides localhost and the listening address, e.g. the name a proxy forwards (repeatable; ".example.org" = its subdomains; "*" = any)', collect, [])
      .option('--allow-origin <origin>', 'an origin whose pages may call the API from a browser (CORS), e.g. https://en.wikipedia.org for the wiki gadget (repeatable; exact origins, never "*"; requests still need the token)', collect, [])
      .option('--log', 'log every request (JSON lines on stdout)'),
    SERVE_OPTIONS,
  ).action(async (flags: ServeFlags) => {
    // The server (fastify) loads only when it starts (issue 31: the CLI answers at once).
    const { closeOnSignals, startServer } = await import('../server/start.js');
    const vc = await openApp(flags, SERVE_OPTIONS);
    const serverOptions = {
      ...(flags.dataDir ? { dataDir: flags.dataDir } : {}),
      host: flags.host,
      port: flags.port,
      concurrency: flags.concurrency,
      ...(flags.queue ? { queue: flags.queue } : {}),
      bodyLimit: flags.bodyLimit,
      requestTimeoutMs: flags.timeout,
      shutdownGraceMs: flags.shutdownGrace,
      auditConcurrency: flags.auditConcurrency,
      log: !!flags.log,
      ...(flags.token ? { token: flags.token } : {}),
      allowedHosts: flags.allowHost,
      allowOrigins: flags.allowOrigin,
      keepJobs: flags.keepJobs,
      jobMaxAgeMs: flags.jobMaxAge,
    };
    let server;
    try {
      server = await startServer(serverOptions, vc);
    } catch (e) {
      await vc.close();
      throw e;
    }
    closeOnSignals(server);
    for (const w of server.warnings) console.error(`veracite serve: warning: ${w}`);
    const store = vc.requireStore();
    const stats = await store.stats();
    const o = server.ctx.options;
    console.error(`veracite serve: ${server.url}/ (index ${vc.settings.index.dir}: ${count(stats.documents, 'document')}, ${snapshotText(await store.snapshot())}; retrieval ${vc.mode})`);
    console.error(`  API ${server.url}/v1/openapi.json · jobs and annotations in ${o.dataDir} (keeps ${o.keepJobs} finished jobs, none older than ${o.jobMaxAgeMs % 86_400_000 === 0 ? `${o.jobMaxAgeMs / 86_400_000} d` : `${Math.round(o.jobMaxAgeMs / 3_600_000)} h`}) · live fetch ${vc.settings.sources.fetch ? 'on' : 'off'} · Ctrl-C stops`);
    // The token itself is not printed: it may come from the environment, and terminals end up in logs.
    if (o.token) console.error(`  token required: open ${server.url}/?token=<your token> once in the browser; API clients send "Authorization: Bearer <token>"`);
    // The listening server keeps the process alive; closeOnSignals ends it.
  });

  const annotations = program.command('annotations').description('blind-comparison annotations collected by `veracite serve`');
  annotations
    .command('export')
    .description('write the annotations as JSONL (or as training pairs for `veracite train`)')
    .option('--index <dir>', 'index directory the server ran on', DEFAULT_INDEX)
    .option('--data-dir <dir>', 'the server\'s --data-dir (default <index>/server)')
    .option('--out <file>', 'output file (default: stdout)')
    .option('--as <format>', 'annotations (as stored) | pairs ({claim, passage, label}) | evidence | nli (the trainer\'s formats)', oneOf('--as', ['annotations', 'pairs', 'evidence', 'nli'] as const), 'annotations')
    .option('--unchosen-as-negative', 'pairs: also use the side not chosen as a "not-supports" example')
    .action(async (flags: { index: string; dataDir?: string; out?: string; as: 'annotations' | 'pairs' | 'evidence' | 'nli'; unchosenAsNegative?: boolean }) => {
      const path = annotationsPath(resolveServerOptions(flags.dataDir ? { dataDir: flags.dataDir } : {}, flags.index).dataDir);
      const out = flags.out ? createWriteStream(flags.out) : process.stdout;
      const write = async (line: string) => {
        if (!out.write(line)) await once(out, 'drain');
      };
      let bad = 0;
      const onBad = (line: number, reason: string) => {
        bad++;
        console.error(`${path}:${line}: skipped (${reason})`);
      };
      let n = 0;
      if (flags.as === 'annotations') {
        for await (const line of exportLines(path, undefined, onBad)) {
          await write(line);
          n++;
        }
      } else {
        const all = [];
        for await (const line of exportLines(path, undefined, onBad)) all.push(AnnotationSchema.parse(JSON.parse(line)));
        const pairs = annotationsToPairs(all, { unchosenAsNegative: !!flags.unchosenAsNegative });
        const rows: unknown[] = flags.as === 'pairs' ? pairs : flags.as === 'evidence' ? toEvidencePairs(pairs) : toNliPairs(pairs);
        for (const r of rows) await write(`${JSON.stringify(r)}\n`);
        n = rows.length;
      }
      if (flags.out) {
        (out as ReturnType<typeof createWriteStream>).end();
        await once(out, 'finish');
      }
      console.error(`veracite annotations export: ${n} ${flags.as === 'annotations' ? 'annotation(s)' : `row(s) as ${flags.as}`} from ${path}${bad ? ` (${bad} bad lines skipped)` : ''}${flags.out ? ` -> ${flags.out}` : ''}`);
    });
}
