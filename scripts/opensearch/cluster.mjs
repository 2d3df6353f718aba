#!/usr/bin/env node
/**
 * A local OpenSearch cluster for veracite's tests and benches, installed from Maven Central (docs/OPENSEARCH.md).
 *
 *   node scripts/opensearch/cluster.mjs start [--nodes 2] [--port 9200] [--heap 512m] [--dir DIR] [--fresh]
 *   node scripts/opensearch/cluster.mjs stop  [--dir DIR]
 *   node scripts/opensearch/cluster.mjs status [--dir DIR]
 *   node scripts/opensearch/cluster.mjs install
 *   node scripts/opensearch/cluster.mjs where [--port 9200]     (the folder holding cluster.json: pids, ports)
 *
 * install (done by start when missing; once, then offline): Maven fetches the minimal distribution
 * (org.opensearch.distribution.integ-test-zip, which holds the server and transport-netty4 only), the modules
 * a real distribution carries that the store needs (analysis-common: pattern tokenizer, snowball, asciifolding;
 * lang-painless: update scripts and script_score; reindex: delete_by_query) and the k-NN plugin; they are laid
 * out as a distribution does under ~/.cache/veracite/opensearch/<version> (VERACITE_OPENSEARCH_HOME moves it).
 *
 * start: N nodes on 127.0.0.1 (HTTP port, port+1, ...; transport 9300+ likewise), plain HTTP, no security
 * plugin, every node cluster-manager-eligible and data, heap 512m each (a 2-core 24 GB machine that also runs
 * the test suite). Waits for green and prints OPENSEARCH_URL=http://127.0.0.1:PORT as its last line. Nodes
 * already running are left as they are, so `start` after one node died restarts just that one.
 * stop: ends only the processes whose pids start wrote (and only if that pid is still an OpenSearch of this
 * cluster), SIGTERM then SIGKILL after 30 s.
 */
import { spawn, spawnSync } from 'node:child_process';
import { closeSync, cpSync, existsSync, openSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync, renameSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import net from 'node:net';

export const VERSION = '2.19.1';
const KNN_VERSION = '2.19.1.0';
/** Bumped when the installed layout changes, so an older install is redone. */
const LAYOUT = 2;

const MODULES = {
  // extends lang-painless as in the distribution: its analysis scripts (predicate_token_filter) need it.
  'analysis-common': { artifact: 'org.opensearch.plugin:analysis-common', classname: 'org.opensearch.analysis.common.CommonAnalysisPlugin', policy: '', extends: 'lang-painless' },
  'lang-painless': {
    artifact: 'org.opensearch.plugin:lang-painless',
    classname: 'org.opensearch.painless.PainlessPlugin',
    // As the distribution's own module policy: Painless compiles scripts to classes.
    policy: 'grant {\n  permission java.lang.RuntimePermission "createClassLoader";\n  permission java.lang.RuntimePermission "getClassLoader";\n};\n',
  },
  reindex: {
    artifact: 'org.opensearch.plugin:reindex-client',
    classname: 'org.opensearch.index.reindex.ReindexPlugin',
    policy: 'grant {\n  permission java.net.SocketPermission "*", "connect";\n};\n',
  },
};

function parseArgs(argv) {
  const o = { nodes: 2, port: 9200, transport: 9300, heap: '512m', fresh: false, dir: undefined, timeout: 240 };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const v = () => {
      const x = argv[++i];
      if (x === undefined) fail(`${a} needs a value`);
      return x;
    };
    if (a === '--nodes') o.nodes = Number(v());
    else if (a === '--port') o.port = Number(v());
    else if (a === '--transport-port') o.transport = Number(v());
    else if (a === '--heap') o.heap = v();
    else if (a === '--dir') o.dir = resolve(v());
    else if (a === '--timeout') o.timeout = Number(v());
    else if (a === '--fresh') o.fresh = true;
    else fail(`unknown option ${a}`);
  }
  if (!Number.isInteger(o.nodes) || o.nodes < 1 || o.nodes > 5) fail('--nodes must be 1..5');
  if (!/^\d+[mg]$/.test(o.heap)) fail('--heap must look like 512m or 1g');
  return o;
}

function fail(msg) {
  console.error(`opensearch: ${msg}`);
  process.exit(1);
}

const log = (msg) => console.error(`opensearch: ${msg}`);

/**
 * OpenSearch refuses to run as root ("can not run opensearch as root"). Started by root (CI, containers), the
 * nodes run as `nobody`, and the default cache is /var/cache/veracite/opensearch, since root's home is not
 * readable by other users.
 */
function nobody() {
  if (process.getuid?.() !== 0) return undefined;
  const uid = Number(spawnSync('id', ['-u', 'nobody'], { encoding: 'utf8' }).stdout.trim());
  const gid = Number(spawnSync('id', ['-g', 'nobody'], { encoding: 'utf8' }).stdout.trim());
  if (!Number.isInteger(uid) || !Number.isInteger(gid)) fail('started as root, and there is no user "nobody" to run OpenSearch as (it refuses root)');
  return { uid, gid };
}

export function homeRoot() {
  if (process.env.VERACITE_OPENSEARCH_HOME) return resolve(process.env.VERACITE_OPENSEARCH_HOME);
  if (process.getuid?.() === 0) return '/var/cache/veracite/opensearch';
  return join(homedir(), '.cache', 'veracite', 'opensearch');
}

export function installDir() {
  return join(homeRoot(), `opensearch-${VERSION}`);
}

function run(cmd, args, opts = {}) {
  const r = spawnSync(cmd, args, { encoding: 'utf8', ...opts });
  if (r.error) throw new Error(`${cmd}: ${r.error.message}`);
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} exited ${r.status}:\n${(r.stdout ?? '').slice(-3000)}${(r.stderr ?? '').slice(-2000)}`);
  return r.stdout;
}

function unzip(zip, dest) {
  mkdirSync(dest, { recursive: true });
  const r = spawnSync('unzip', ['-q', '-o', zip, '-d', dest], { encoding: 'utf8' });
  if (r.error || r.status !== 0) run('jar', ['xf', zip], { cwd: dest }); // the JDK's own unzip
}

function mavenPom(deps) {
  const d = deps.map(([g, a, v, type]) => `<dependency><groupId>${g}</groupId><artifactId>${a}</artifactId><version>${v}</version>${type ? `<type>${type}</type>` : ''}</dependency>`).join('\n');
  return `<project xmlns="http://maven.apache.org/POM/4.0.0"><modelVersion>4.0.0</modelVersion>
<groupId>veracite</groupId><artifactId>opensearch-install</artifactId><version>1</version><packaging>pom</packaging>
<dependencies>
${d}
</dependencies></project>
`;
}

/** `mvn dependency:copy-dependencies` of one artifact (with its runtime dependencies) into `out`. */
function mavenCopy(work, name, deps, out, transitive) {
  const dir = join(work, name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'pom.xml'), mavenPom(deps));
  const args = ['-q', '-B', 'dependency:copy-dependencies', `-DoutputDirectory=${out}`, '-DincludeScope=runtime'];
  if (!transitive) args.push('-DexcludeTransitive=true');
  run('mvn', args, { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
}

export function install() {
  const dest = installDir();
  const marker = join(dest, '.veracite-installed');
  if (existsSync(marker) && readFileSync(marker, 'utf8').includes(`layout ${LAYOUT}`)) return dest;
  if (spawnSync('mvn', ['-v'], { encoding: 'utf8' }).status !== 0) fail('Maven (mvn) is needed once to install OpenSearch from Maven Central; install it (apt-get install maven) or use the docker route in docs/OPENSEARCH.md');
  if (spawnSync('java', ['-version'], { encoding: 'utf8' }).status !== 0 && !process.env.JAVA_HOME && !process.env.OPENSEARCH_JAVA_HOME) fail('Java 17+ is needed to run OpenSearch (apt-get install openjdk-17-jre-headless)');
  const root = homeRoot();
  mkdirSync(root, { recursive: true });
  const work = join(root, `.install-${process.pid}`);
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
  const t0 = Date.now();
  log(`installing OpenSearch ${VERSION} from Maven Central into ${dest} (once)`);
  const zips = join(work, 'zips');
  mavenCopy(work, 'dist', [['org.opensearch.distribution.integ-test-zip', 'opensearch', VERSION, 'zip'], ['org.opensearch.plugin', 'opensearch-knn', KNN_VERSION, 'zip']], zips, false);
  const staged = join(work, 'unpacked');
  unzip(join(zips, `opensearch-${VERSION}.zip`), staged);
  const home = join(staged, `opensearch-${VERSION}`);
  const serverJars = new Set(readdirSync(join(home, 'lib')));
  for (const [name, m] of Object.entries(MODULES)) {
    const mdir = join(home, 'modules', name);
    mavenCopy(work, name, [[...m.artifact.split(':'), VERSION]], mdir, true);
    // The server's own jars are on the classpath already: a second copy in a module is jar hell.
    for (const j of readdirSync(mdir)) if (serverJars.has(j) || /^opensearch-\d/.test(j) || /^lucene-/.test(j)) rmSync(join(mdir, j));
    writeFileSync(join(mdir, 'plugin-descriptor.properties'), [
      `description=${name} (module of the OpenSearch distribution, from Maven Central)`,
      `version=${VERSION}`, `name=${name}`, `classname=${m.classname}`, 'java.version=11', `opensearch.version=${VERSION}`,
      `extended.plugins=${m.extends ?? ''}`, 'has.native.controller=false', '',
    ].join('\n'));
    if (m.policy) writeFileSync(join(mdir, 'plugin-security.policy'), m.policy);
  }
  unzip(join(zips, `opensearch-knn-${KNN_VERSION}.zip`), join(home, 'plugins', 'opensearch-knn'));
  rmSync(dest, { recursive: true, force: true });
  renameSync(home, dest);
  writeFileSync(marker, `${VERSION} knn ${KNN_VERSION} layout ${LAYOUT} ${new Date().toISOString()}\n`);
  rmSync(work, { recursive: true, force: true });
  log(`installed in ${((Date.now() - t0) / 1000).toFixed(0)} s`);
  return dest;
}

/** The minimal distribution has no bundled JDK: OPENSEARCH_JAVA_HOME, JAVA_HOME, or the `java` on PATH. */
function javaHome() {
  if (process.env.OPENSEARCH_JAVA_HOME) return process.env.OPENSEARCH_JAVA_HOME;
  if (process.env.JAVA_HOME) return process.env.JAVA_HOME;
  const r = spawnSync('java', ['-XshowSettings:properties', '-version'], { encoding: 'utf8' });
  const m = /java\.home = (.+)/.exec(r.stderr ?? '');
  if (!m) fail('no Java found: install Java 17+ (apt-get install openjdk-17-jre-headless) or set OPENSEARCH_JAVA_HOME');
  return m[1].trim();
}

export function clusterDir(opts) {
  return opts.dir ?? join(homeRoot(), `cluster-${opts.port}`);
}

function stateFile(dir) {
  return join(dir, 'cluster.json');
}

export function readState(dir) {
  try {
    return JSON.parse(readFileSync(stateFile(dir), 'utf8'));
  } catch {
    return undefined;
  }
}

/** One look at /proc: the pid is an OpenSearch node of this cluster (false too when /proc could not be read). */
function matchOnce(pid, confDir) {
  let stat;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return false;
  }
  if (/^\d+ \(.*\) Z/.test(stat)) return false;
  try {
    const cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
    // The JVM names its config folder on its command line; bin/opensearch (env, then bash, for the moment
    // before it execs java) only in its environment.
    if (cmd.includes(`-Dopensearch.path.conf=${confDir}\0`)) return true;
    return (cmd.includes('org.opensearch.bootstrap.OpenSearch') || cmd.includes('/bin/opensearch')) && readFileSync(`/proc/${pid}/environ`, 'utf8').includes(`OPENSEARCH_PATH_CONF=${confDir}\0`);
  } catch {
    return false;
  }
}

const pause = (ms) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

/**
 * The pid is alive and is an OpenSearch node whose config is under this cluster's folder. A process that
 * is exec'ing (env -> bash -> java) reads for an instant with an empty cmdline or environ: measured here,
 * 2 of 212,939 back-to-back reads during a node's start-up, and once in CI a live node-2 was taken for dead.
 * So a live process that does not match is looked at again, 5 times over 100 ms, before the answer is no.
 */
export function isOurNode(pid, confDir) {
  for (let i = 0; i < 5; i++) {
    if (matchOnce(pid, confDir)) return true;
    if (!existsSync(`/proc/${pid}`)) return false;
    pause(20);
  }
  return false;
}

function portFree(port) {
  return new Promise((res) => {
    const s = net.createServer();
    s.once('error', () => res(false));
    s.listen(port, '127.0.0.1', () => s.close(() => res(true)));
  });
}

function nodeConfig(opts, i, dir) {
  const names = Array.from({ length: opts.nodes }, (_, k) => `node-${k + 1}`);
  const seeds = names.map((_, k) => `127.0.0.1:${opts.transport + k}`);
  return [
    'cluster.name: veracite-local',
    `node.name: ${names[i]}`,
    `path.data: ${join(dir, names[i], 'data')}`,
    `path.logs: ${join(dir, names[i], 'logs')}`,
    'network.host: 127.0.0.1',
    `http.port: ${opts.port + i}`,
    `transport.port: ${opts.transport + i}`,
    `discovery.seed_hosts: [${seeds.map((s) => `"${s}"`).join(', ')}]`,
    `cluster.initial_cluster_manager_nodes: [${names.map((n) => `"${n}"`).join(', ')}]`,
    // A test machine's disk is often past 90% full of other work: do not refuse shards for it.
    'cluster.routing.allocation.disk.threshold_enabled: false',
    '',
  ].join('\n');
}

function writeNodeConf(home, opts, i, dir) {
  const name = `node-${i + 1}`;
  const conf = join(dir, name, 'config');
  mkdirSync(conf, { recursive: true });
  for (const f of ['log4j2.properties']) cpSync(join(home, 'config', f), join(conf, f));
  const jvm = readFileSync(join(home, 'config', 'jvm.options'), 'utf8')
    .replace(/^-Xms\S+$/m, `-Xms${opts.heap}`)
    .replace(/^-Xmx\S+$/m, `-Xmx${opts.heap}`)
    .replace(/^-XX:HeapDumpPath=.*$/m, `-XX:HeapDumpPath=${join(dir, name, 'logs')}`)
    .replace(/^-XX:ErrorFile=.*$/m, `-XX:ErrorFile=${join(dir, name, 'logs')}/hs_err_pid%p.log`)
    .replace(/^(\d+-:)?-Xlog:gc.*$/m, '');
  writeFileSync(join(conf, 'jvm.options'), jvm);
  writeFileSync(join(conf, 'opensearch.yml'), nodeConfig(opts, i, dir));
  return conf;
}

async function get(url) {
  const r = await fetch(url, { signal: AbortSignal.timeout(10_000) });
  return { status: r.status, body: await r.json().catch(() => undefined) };
}

export async function waitGreen(port, nodes, timeoutS, pidsAlive) {
  const until = Date.now() + timeoutS * 1000;
  let last = 'no answer yet';
  while (Date.now() < until) {
    const dead = pidsAlive();
    if (dead) throw new Error(dead);
    try {
      const r = await get(`http://127.0.0.1:${port}/_cluster/health?wait_for_status=green&wait_for_nodes=${nodes}&timeout=5s`);
      if (r.status === 200 && r.body?.status === 'green' && r.body.number_of_nodes >= nodes) return r.body;
      last = r.body ? `status ${r.body.status}, ${r.body.number_of_nodes} of ${nodes} nodes` : `HTTP ${r.status}`;
    } catch (e) {
      last = e.cause?.code ?? e.message;
    }
    await new Promise((res) => setTimeout(res, 1000));
  }
  throw new Error(`cluster not green after ${timeoutS} s (${last})`);
}

/** What a node said about its failure: its log's errors, or (before log4j starts) the end of its stdout. */
function tailLog(dir, name) {
  const f = join(dir, name, 'logs', 'veracite-local.log');
  try {
    const lines = readFileSync(f, 'utf8').split('\n').filter((l) => /ERROR|WARN|Exception|Caused by/.test(l));
    return lines.slice(-8).join('\n') || `(see ${f})`;
  } catch {
    const out = join(dir, name, 'stdout.log');
    try {
      const lines = readFileSync(out, 'utf8').split('\n').filter((l) => l.trim() && !/^(warning: no-jdk|WARNING: )/.test(l));
      return lines.length ? `(no log at ${f} yet; the end of ${out}:)\n${lines.slice(-12).join('\n')}` : `(no log at ${f} yet; ${out} is empty)`;
    } catch {
      return `(no log at ${f}, no ${out})`;
    }
  }
}

export async function start(opts) {
  const home = install();
  const dir = clusterDir(opts);
  if (opts.fresh) {
    await stop(opts, { quiet: true });
    rmSync(dir, { recursive: true, force: true });
  }
  mkdirSync(dir, { recursive: true });
  const prev = readState(dir);
  const state = { version: VERSION, home, dir, port: opts.port, transport: opts.transport, heap: opts.heap, nodes: [] };
  const t0 = Date.now();
  /** name -> how a node this run started ended (undefined while it runs). */
  const exits = new Map();
  for (let i = 0; i < opts.nodes; i++) {
    const name = `node-${i + 1}`;
    const conf = writeNodeConf(home, opts, i, dir);
    const old = prev?.nodes?.find((n) => n.name === name);
    const node = { name, httpPort: opts.port + i, transportPort: opts.transport + i, conf, pid: undefined };
    if (old?.pid && isOurNode(old.pid, conf)) {
      node.pid = old.pid;
      state.nodes.push(node);
      continue;
    }
    for (const p of [node.httpPort, node.transportPort]) if (!(await portFree(p))) fail(`port ${p} on 127.0.0.1 is taken by another process; pick others with --port / --transport-port`);
    const pidFile = join(dir, name, 'opensearch.pid');
    rmSync(pidFile, { force: true });
    const out = join(dir, name, 'stdout.log');
    const env = { ...process.env, OPENSEARCH_PATH_CONF: conf, OPENSEARCH_JAVA_OPTS: '', OPENSEARCH_JAVA_HOME: javaHome() };
    delete env.JAVA_TOOL_OPTIONS;
    const user = nobody();
    if (user) {
      env.HOME = join(dir, name);
      run('chown', ['-R', `${user.uid}:${user.gid}`, join(dir, name)]);
    }
    // In the foreground bin/opensearch execs java, so the child's pid is the node's; detached with its
    // output in a file, the nodes start side by side and outlive this script (`-d` would wait for each
    // node's start-up, which waits for the cluster the other nodes have not joined yet).
    const fd = openSync(out, 'w');
    const child = spawn(join(home, 'bin', 'opensearch'), ['-p', pidFile], { env, cwd: join(dir, name), stdio: ['ignore', fd, fd], detached: true, ...(user ?? {}) });
    closeSync(fd);
    // Its exit, seen by its parent, is the word on a node this run started; /proc only for nodes found running.
    exits.set(name, undefined);
    child.on('exit', (code, signal) => exits.set(name, signal ? `killed by ${signal}` : `exit code ${code}`));
    child.unref();
    node.pid = child.pid;
    state.nodes.push(node);
    log(`${name} pid ${node.pid} http 127.0.0.1:${node.httpPort} transport ${node.transportPort}`);
  }
  writeFileSync(stateFile(dir), JSON.stringify(state, null, 2) + '\n');
  const health = await waitGreen(opts.port, opts.nodes, opts.timeout, () => {
    const dead = state.nodes.find((n) => (exits.has(n.name) ? exits.get(n.name) : !isOurNode(n.pid, n.conf)));
    return dead ? `${dead.name} (pid ${dead.pid}) exited during start-up${exits.get(dead.name) ? ` (${exits.get(dead.name)})` : ''}:\n${tailLog(dir, dead.name)}` : undefined;
  }).catch(async (e) => {
    throw new Error(`${e.message}\n${state.nodes.map((n) => `${n.name}: ${tailLog(dir, n.name)}`).join('\n')}`);
  });
  log(`green: ${health.number_of_nodes} nodes, cluster ${health.cluster_name}, in ${((Date.now() - t0) / 1000).toFixed(1)} s; stop with: npm run opensearch:stop`);
  return state;
}

export async function stop(opts, { quiet = false } = {}) {
  const dir = clusterDir(opts);
  const state = readState(dir);
  if (!state) {
    if (!quiet) log(`no cluster started from ${dir}`);
    return;
  }
  const ours = state.nodes.filter((n) => n.pid && isOurNode(n.pid, n.conf));
  for (const n of ours) process.kill(n.pid, 'SIGTERM');
  const until = Date.now() + 30_000;
  while (ours.some((n) => isOurNode(n.pid, n.conf)) && Date.now() < until) await new Promise((res) => setTimeout(res, 200));
  for (const n of ours) if (isOurNode(n.pid, n.conf)) process.kill(n.pid, 'SIGKILL');
  if (!quiet) log(ours.length ? `stopped ${ours.map((n) => `${n.name} (pid ${n.pid})`).join(', ')}` : 'no node of this cluster was running');
  writeFileSync(stateFile(dir), JSON.stringify({ ...state, nodes: state.nodes.map((n) => ({ ...n, pid: undefined })) }, null, 2) + '\n');
}

async function main() {
  const [cmd, ...rest] = process.argv.slice(2);
  const opts = parseArgs(rest);
  try {
    if (cmd === 'install') console.log(install());
    else if (cmd === 'start') {
      await start(opts);
      console.log(`OPENSEARCH_URL=http://127.0.0.1:${opts.port}`);
    } else if (cmd === 'stop') await stop(opts);
    else if (cmd === 'where') console.log(clusterDir(opts)); // the folder of cluster.json (pids, ports), for the fault tests
    else if (cmd === 'status') {
      const s = readState(clusterDir(opts));
      if (!s) fail(`no cluster started from ${clusterDir(opts)}`);
      for (const n of s.nodes) console.log(`${n.name} pid ${n.pid ?? '-'} ${n.pid && isOurNode(n.pid, n.conf) ? 'running' : 'not running'} http ${n.httpPort}`);
    } else fail('usage: cluster.mjs start|stop|status|install [--nodes N] [--port P] [--heap 512m] [--dir DIR] [--fresh]');
  } catch (e) {
    fail(e.message);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
