/**
 * `--index opensearch://host:port/name` -> client options and index names. Credentials and TLS come from
 * the environment, never from the index spec (it is printed in provenance and logs):
 *   OPENSEARCH_USERNAME / OPENSEARCH_PASSWORD   basic auth (or user:password in OPENSEARCH_URL)
 *   OPENSEARCH_URL                              e.g. https://admin:secret@localhost:9200; its scheme and
 *                                               credentials apply when its host matches the spec's
 *   OPENSEARCH_CA                               a PEM file with the cluster's CA certificate
 *   OPENSEARCH_INSECURE=1                       accept a self-signed certificate (local clusters only)
 * `opensearch://` means HTTPS (the security plugin's default); `opensearch+http://` plain HTTP.
 */
import { readFileSync } from 'node:fs';
import type { ClientOptions } from '@opensearch-project/opensearch';

export interface OpenSearchSpec {
  node: string;
  /** Prefix of the store's indices: `<name>-passages`, `<name>-documents`, `<name>-meta`. */
  name: string;
  /** The spec without credentials, for provenance. */
  display: string;
  clientOptions: ClientOptions;
}

export function isOpenSearchSpec(spec: string): boolean {
  return /^opensearch(\+https?)?:\/\//i.test(spec);
}

const INDEX_NAME = /^[a-z0-9][a-z0-9_-]*$/;

export function parseOpenSearchSpec(spec: string, env: NodeJS.ProcessEnv = process.env): OpenSearchSpec {
  const m = /^opensearch(?:\+(https?))?:\/\/([^/]+)\/([^/?#]+)\/?$/i.exec(spec.trim());
  if (!m) throw new Error(`not an OpenSearch index: "${spec}" (expected opensearch://host:port/name)`);
  const scheme = (m[1] ?? 'https').toLowerCase();
  const hostPort = m[2]!;
  if (hostPort.includes('@')) throw new Error(`${spec}: put credentials in OPENSEARCH_USERNAME / OPENSEARCH_PASSWORD, not in the index spec`);
  const name = decodeURIComponent(m[3]!);
  if (!INDEX_NAME.test(name)) throw new Error(`${spec}: index name "${name}" must be lower-case letters, digits, "-" or "_"`);
  const node = new URL(`${scheme}://${hostPort}`);
  let username = env.OPENSEARCH_USERNAME;
  let password = env.OPENSEARCH_PASSWORD;
  if (env.OPENSEARCH_URL) {
    const url = new URL(env.OPENSEARCH_URL);
    if (url.host === node.host) {
      node.protocol = url.protocol;
      username ??= url.username ? decodeURIComponent(url.username) : undefined;
      password ??= url.password ? decodeURIComponent(url.password) : undefined;
    }
  }
  const clientOptions: ClientOptions = { node: node.origin, maxRetries: 3, requestTimeout: 120_000 };
  if (username !== undefined) clientOptions.auth = { username, password: password ?? '' };
  if (node.protocol === 'https:') {
    if (env.OPENSEARCH_CA) clientOptions.ssl = { ca: readFileSync(env.OPENSEARCH_CA) };
    else if (env.OPENSEARCH_INSECURE === '1') clientOptions.ssl = { rejectUnauthorized: false };
  }
  return { node: node.origin, name, display: `opensearch://${node.host}/${name}`, clientOptions };
}
