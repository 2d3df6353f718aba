import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import { forbiddenAddressReason, parseIpv6 } from './ip-ranges.js';

describe('forbiddenAddressReason', () => {
  it('refuses loopback, private, link-local, CGNAT, this-network, multicast and metadata IPv4', () => {
    const cases: [string, RegExp][] = [
      ['127.0.0.1', /loopback/],
      ['127.255.0.9', /loopback/],
      ['10.1.2.3', /private/],
      ['172.16.0.1', /private/],
      ['172.31.255.255', /private/],
      ['192.168.1.1', /private/],
      ['169.254.169.254', /metadata/],
      ['169.254.1.1', /link-local/],
      ['100.64.0.1', /carrier-grade/],
      ['100.127.255.254', /carrier-grade/],
      ['0.0.0.0', /this network/],
      ['0.1.2.3', /this network/],
      ['224.0.0.1', /multicast/],
      ['239.255.255.250', /multicast/],
      ['255.255.255.255', /reserved/],
    ];
    for (const [ip, why] of cases) assert.match(forbiddenAddressReason(ip) ?? 'allowed', why, ip);
  });

  it('refuses loopback, unique-local, link-local, multicast and metadata IPv6, and IPv4 hidden in IPv6', () => {
    const cases: [string, RegExp][] = [
      ['::1', /loopback/],
      ['::', /unspecified/],
      ['fc00::1', /unique local/],
      ['fd12:3456::1', /unique local/],
      ['fd00:ec2::254', /metadata/],
      ['fe80::1%eth0', /link-local/],
      ['febf::1', /link-local/],
      ['ff02::1', /multicast/],
      ['::ffff:127.0.0.1', /loopback/],
      ['::ffff:a9fe:a9fe', /metadata/],
      ['::ffff:10.0.0.1', /private/],
      ['64:ff9b::a00:1', /private/],
      ['2002:c0a8:0101::1', /private/],
      ['[::1]', /loopback/],
      // IPv4-translated, Teredo, local-use NAT64, discard-only (a tester's finding: these passed before).
      ['::ffff:0:7f00:1', /loopback/],
      ['::ffff:0:a9fe:a9fe', /metadata/],
      ['2001:0:4136:e378:8000:63bf:3fff:fdd2', /Teredo/],
      ['64:ff9b:1::a00:1', /local-use NAT64/],
      ['100::1', /discard-only/],
    ];
    for (const [ip, why] of cases) assert.match(forbiddenAddressReason(ip) ?? 'allowed', why, ip);
  });

  it('lets public unicast addresses through', () => {
    for (const ip of ['8.8.8.8', '1.1.1.1', '93.184.216.34', '172.32.0.1', '100.128.0.1', '2606:4700:4700::1111', '2a00:1450:4001:80b::200e', '::ffff:8.8.8.8', '::ffff:0:808:808', '2001:4860:4860::8888']) {
      assert.equal(forbiddenAddressReason(ip), undefined, ip);
    }
  });

  it('fails closed on anything that is not an IP address', () => {
    assert.match(forbiddenAddressReason('localhost')!, /not an IP/);
    assert.match(forbiddenAddressReason('1.2.3')!, /not an IP/);
    assert.match(forbiddenAddressReason('256.1.1.1')!, /not an IP/);
  });

  it('parses compressed IPv6 forms', () => {
    assert.deepEqual(parseIpv6('::1'), [0, 0, 0, 0, 0, 0, 0, 1]);
    assert.deepEqual(parseIpv6('fe80::1:2'), [0xfe80, 0, 0, 0, 0, 0, 1, 2]);
    assert.deepEqual(parseIpv6('::ffff:1.2.3.4'), [0, 0, 0, 0, 0, 0xffff, 0x0102, 0x0304]);
    assert.equal(parseIpv6('1.2.3.4'), undefined);
  });
});
