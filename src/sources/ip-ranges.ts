/**
 * Which IP addresses a live fetch must never connect to (SSRF guard): loopback, private, link-local,
 * CGNAT, "this network", multicast, reserved/documentation ranges and cloud metadata endpoints.
 *
 * Parsed by hand rather than with `net.BlockList` so IPv4 addresses hidden inside IPv6 ones
 * (`::ffff:127.0.0.1`, `::127.0.0.1`, NAT64 `64:ff9b::a00:1`, 6to4 `2002:0a00:0001::`) are unwrapped and
 * checked as the IPv4 address they reach, and so every refusal names its reason.
 */
import { isIP } from 'node:net';

interface V4Range {
  base: number;
  bits: number;
  reason: string;
}

const v4 = (cidr: string, reason: string): V4Range => {
  const [addr, bits] = cidr.split('/');
  return { base: parseIpv4(addr!)!, bits: Number(bits), reason };
};

/** Most specific first: the first match names the refusal. */
const V4_FORBIDDEN: V4Range[] = [
  v4('169.254.169.254/32', 'cloud metadata endpoint'),
  v4('100.100.100.200/32', 'cloud metadata endpoint'),
  v4('0.0.0.0/8', '"this network" (0.0.0.0/8)'),
  v4('10.0.0.0/8', 'private (10/8)'),
  v4('100.64.0.0/10', 'carrier-grade NAT (100.64/10)'),
  v4('127.0.0.0/8', 'loopback (127/8)'),
  v4('169.254.0.0/16', 'link-local (169.254/16)'),
  v4('172.16.0.0/12', 'private (172.16/12)'),
  v4('192.0.0.0/24', 'IETF protocol assignments (192.0.0/24)'),
  v4('192.0.2.0/24', 'documentation (192.0.2/24)'),
  v4('192.88.99.0/24', '6to4 relay anycast (192.88.99/24)'),
  v4('192.168.0.0/16', 'private (192.168/16)'),
  v4('198.18.0.0/15', 'benchmarking (198.18/15)'),
  v4('198.51.100.0/24', 'documentation (198.51.100/24)'),
  v4('203.0.113.0/24', 'documentation (203.0.113/24)'),
  v4('224.0.0.0/4', 'multicast (224/4)'),
  v4('240.0.0.0/4', 'reserved (240/4)'),
];

/** "a.b.c.d" -> unsigned 32-bit number; undefined for anything else (no octal/hex forms: URL already normalised those). */
export function parseIpv4(s: string): number | undefined {
  const parts = s.split('.');
  if (parts.length !== 4) return undefined;
  let n = 0;
  for (const p of parts) {
    if (!/^\d{1,3}$/.test(p)) return undefined;
    const b = Number(p);
    if (b > 255) return undefined;
    n = n * 256 + b;
  }
  return n;
}

function inV4(addr: number, r: V4Range): boolean {
  if (r.bits === 0) return true;
  const mask = r.bits === 32 ? 0xffffffff : (~0 << (32 - r.bits)) >>> 0;
  return ((addr & mask) >>> 0) === ((r.base & mask) >>> 0);
}

function ipv4Reason(addr: number): string | undefined {
  return V4_FORBIDDEN.find((r) => inV4(addr, r))?.reason;
}

/** "fe80::1%eth0", "::ffff:1.2.3.4" -> 8 hextets; undefined when not IPv6. */
export function parseIpv6(input: string): number[] | undefined {
  let s = input.replace(/^\[|\]$/g, '');
  const zone = s.indexOf('%');
  if (zone >= 0) s = s.slice(0, zone);
  if (isIP(s) !== 6) return undefined;
  // A trailing dotted quad stands for the last two hextets.
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(s);
  if (dotted) {
    const n = parseIpv4(dotted[1]!);
    if (n === undefined) return undefined;
    s = s.slice(0, dotted.index) + `${((n >>> 16) & 0xffff).toString(16)}:${(n & 0xffff).toString(16)}`;
  }
  const halves = s.split('::');
  if (halves.length > 2) return undefined;
  const head = halves[0] ? halves[0].split(':') : [];
  const tail = halves.length === 2 && halves[1] ? halves[1].split(':') : [];
  const fill = halves.length === 2 ? 8 - head.length - tail.length : 0;
  const groups = [...head, ...Array<string>(fill).fill('0'), ...tail].map((g) => parseInt(g, 16));
  return groups.length === 8 && groups.every((g) => Number.isInteger(g) && g >= 0 && g <= 0xffff) ? groups : undefined;
}

function embeddedV4(g: number[], at: number): number {
  return ((g[at]! << 16) >>> 0) + g[at + 1]!;
}

function ipv6Reason(g: number[]): string | undefined {
  const zeroUntil = (n: number) => g.slice(0, n).every((x) => x === 0);
  if (g.every((x) => x === 0)) return 'unspecified (::)';
  if (zeroUntil(7) && g[7] === 1) return 'loopback (::1)';
  // fd00:ec2::254: AWS's IPv6 metadata endpoint (inside fc00::/7, named for a clearer message).
  if (g[0] === 0xfd00 && g[1] === 0x0ec2 && g.slice(2, 7).every((x) => x === 0) && g[7] === 0x254) return 'cloud metadata endpoint';
  // IPv4-mapped ::ffff:a.b.c.d and IPv4-compatible ::a.b.c.d reach the IPv4 address.
  if (zeroUntil(5) && g[5] === 0xffff) return ipv4Reason(embeddedV4(g, 6));
  if (zeroUntil(6)) return ipv4Reason(embeddedV4(g, 6));
  // IPv4-translated ::ffff:0:a.b.c.d (SIIT, RFC 2765) reaches the IPv4 address as well.
  if (zeroUntil(4) && g[4] === 0xffff && g[5] === 0) return ipv4Reason(embeddedV4(g, 6));
  // Teredo (2001::/32) hides its IPv4 server and client (the client obfuscated): where it routes, it tunnels to
  // addresses this check cannot read, so it is refused whole. So is the local-use NAT64 prefix
  // (64:ff9b:1::/48, RFC 8215), whose IPv4 sits where the operator's prefix length puts it.
  if (g[0] === 0x2001 && g[1] === 0) return 'Teredo tunnel (2001::/32)';
  if (g[0] === 0x64 && g[1] === 0xff9b && g[2] === 1) return 'local-use NAT64 (64:ff9b:1::/48)';
  // The discard-only prefix (100::/64, RFC 6666).
  if (g[0] === 0x100 && g.slice(1, 4).every((x) => x === 0)) return 'discard-only (100::/64)';
  // NAT64 (64:ff9b::/96) and 6to4 (2002::/16) embed an IPv4 destination too.
  if (g[0] === 0x64 && g[1] === 0xff9b && g.slice(2, 6).every((x) => x === 0)) return ipv4Reason(embeddedV4(g, 6));
  if (g[0] === 0x2002) return ipv4Reason(embeddedV4(g, 1));
  if ((g[0]! & 0xfe00) === 0xfc00) return 'unique local (fc00::/7)';
  if ((g[0]! & 0xffc0) === 0xfe80) return 'link-local (fe80::/10)';
  if ((g[0]! & 0xffc0) === 0xfec0) return 'site-local (fec0::/10)';
  if ((g[0]! & 0xff00) === 0xff00) return 'multicast (ff00::/8)';
  if (g[0] === 0x2001 && g[1] === 0x0db8) return 'documentation (2001:db8::/32)';
  return undefined;
}

/**
 * Why `address` must not be connected to, or undefined when it is a public unicast address.
 * Anything that is not a well-formed IP address is refused too (fail closed).
 */
export function forbiddenAddressReason(address: string): string | undefined {
  const a = address.trim().replace(/^\[|\]$/g, '');
  const n4 = parseIpv4(a);
  if (n4 !== undefined) return ipv4Reason(n4);
  const g = parseIpv6(a);
  if (g) return ipv6Reason(g);
  return `not an IP address: ${JSON.stringify(address)}`;
}
