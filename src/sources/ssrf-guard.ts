/**
 * SSRF guard for live fetches. A cited URL is user-controlled input: without this, `audit --fetch` on a
 * crafted article could make us read the cloud metadata service or an intranet page and print it in the
 * report.
 *
 * We resolve the host ourselves (every address, not just the first), refuse the URL when ANY address is
 * forbidden (an attacker's DNS may mix a public and a private answer), and then connect to the address we
 * checked through a pinned `lookup`, so a second DNS answer (DNS rebinding) can never be used. The caller
 * runs this again on every redirect hop.
 */
import { lookup as dnsLookup } from 'node:dns/promises';
import type { LookupAddress, LookupOptions } from 'node:dns';
import { isIP } from 'node:net';
import { forbiddenAddressReason } from './ip-ranges.js';

export type Resolver = (hostname: string) => Promise<LookupAddress[]>;

export interface GuardOptions {
  /**
   * TEST ONLY: host names exactly as written in the URL (e.g. "127.0.0.1") that may be reached although
   * their addresses are forbidden. Matched on the name, never on the resolved address, so allowing
   * "127.0.0.1" does not allow "localhost" or a redirect to another name. Empty by default; the CLI never
   * sets it.
   */
  allowHosts?: readonly string[];
  /**
   * Origins (scheme, host and port: `http://127.0.0.1:8080`) that may be reached although their addresses are
   * forbidden: a mirror the user named (`--api-base`). Narrower than `allowHosts`: a redirect from the mirror
   * to another port or scheme of the same host is checked like any other address.
   */
  allowOrigins?: readonly string[];
  /** DNS resolver (default dns.lookup with all: true); tests inject one to simulate hostile DNS answers. */
  resolver?: Resolver;
}

/** The URL points at an address we refuse to connect to. */
export class BlockedAddressError extends Error {
  constructor(
    readonly url: string,
    readonly address: string,
    readonly reason: string,
  ) {
    super(`refused ${url}: ${address} is ${reason}`);
    this.name = 'BlockedAddressError';
  }
}

/** The URL cannot be fetched as given (scheme, credentials, no host). */
export class BadUrlError extends Error {
  constructor(
    readonly url: string,
    readonly problem: string,
  ) {
    super(`${problem}: ${url}`);
    this.name = 'BadUrlError';
  }
}

/** The host's name did not resolve: no such name, or no DNS at all (offline gives ENOTFOUND too). */
export class DnsError extends Error {
  constructor(
    readonly hostname: string,
    readonly code: string,
  ) {
    super(`DNS lookup of ${hostname} failed (${code})`);
    this.name = 'DnsError';
  }
}

export interface CheckedTarget {
  url: URL;
  hostname: string;
  /** The checked address the connection must use. */
  address: string;
  family: 4 | 6;
}

const defaultResolver: Resolver = (hostname) => dnsLookup(hostname, { all: true, verbatim: true });

function bareHost(url: URL): string {
  return url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
}

/** Validates scheme and host, resolves every address and checks each; throws when the URL must not be fetched. */
export async function resolveChecked(url: URL, opts: GuardOptions = {}): Promise<CheckedTarget> {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new BadUrlError(url.href, `unsupported scheme ${url.protocol}`);
  if (url.username || url.password) throw new BadUrlError(url.href, 'URL with credentials');
  const hostname = bareHost(url);
  if (!hostname) throw new BadUrlError(url.href, 'URL without host');
  const allow = new Set((opts.allowHosts ?? []).map((h) => h.toLowerCase()));
  const originAllowed = (opts.allowOrigins ?? []).some((o) => o === url.origin);

  let addresses: LookupAddress[];
  const literal = isIP(hostname);
  if (literal) addresses = [{ address: hostname, family: literal }];
  else {
    try {
      addresses = await (opts.resolver ?? defaultResolver)(hostname);
    } catch (e) {
      throw new DnsError(hostname, (e as NodeJS.ErrnoException).code ?? 'ERROR');
    }
    if (addresses.length === 0) throw new DnsError(hostname, 'NODATA');
  }
  for (const a of addresses) {
    if (allow.has(hostname) || originAllowed) break;
    const reason = forbiddenAddressReason(a.address);
    if (reason) throw new BlockedAddressError(url.href, a.address, reason);
  }
  const first = addresses[0]!;
  return { url, hostname, address: first.address, family: first.family === 6 ? 6 : 4 };
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A `lookup` for http(s).request that always answers with the checked address, whatever name the socket
 * asks for. Node's happy-eyeballs connect asks with `all: true` and expects a list.
 */
export function pinnedLookup(target: CheckedTarget): (hostname: string, options: LookupOptions, callback: LookupCallback) => void {
  return (_hostname, options, callback) => {
    if (options.all) callback(null, [{ address: target.address, family: target.family }]);
    else callback(null, target.address, target.family);
  };
}
