/**
 * A mirror named with --api-base (doi=http://10.0.0.5:8080) may sit on an address the SSRF guard forbids: the
 * user chose it, so its origin is trusted. Only its origin: a redirect from the mirror to another port of the
 * same host (an internal service) is checked like any address, and refused. Before, the mirror's host name was
 * trusted on every port and every hop, and a 302 to :<internal port> was followed and its text read as evidence.
 */
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { SourceResolver } from './resolve-source.js';

const listen = (s: Server) => new Promise<number>((res) => s.listen(0, '127.0.0.1', () => res((s.address() as AddressInfo).port)));
const PAGE = (text: string) => `<!doctype html><html><head><title>${text}</title></head><body><p>${text} The tower is 26 metres tall and was built in 1890 by the harbour board.</p></body></html>`;

describe('an --api-base mirror is trusted by its origin, not its host name', () => {
  let internal: Server;
  let mirror: Server;
  let internalPort = 0;
  let mirrorPort = 0;
  let internalHits = 0;
  before(async () => {
    internal = createServer((_req, res) => {
      internalHits++;
      res.writeHead(200, { 'content-type': 'text/html' }).end(PAGE('INTERNAL SECRET HUNTER2.'));
    });
    internalPort = await listen(internal);
    mirror = createServer((req, res) => {
      if (req.url === '/10.1234/redirects') res.writeHead(302, { location: `http://127.0.0.1:${internalPort}/secret` }).end();
      else if (req.url === '/10.1234/same-origin') res.writeHead(302, { location: `http://127.0.0.1:${mirrorPort}/landing` }).end();
      else if (req.url === '/landing') res.writeHead(200, { 'content-type': 'text/html' }).end(PAGE('Harbour tower survey.'));
      else res.writeHead(404).end();
    });
    mirrorPort = await listen(mirror);
  });
  after(async () => {
    await new Promise((r) => internal.close(r));
    await new Promise((r) => mirror.close(r));
  });

  const resolver = () => new SourceResolver({ fetch: { wayback: false, works: { bases: { doi: `http://127.0.0.1:${mirrorPort}` }, intervalMs: 0 } } });

  it('follows the mirror to its own landing page', async () => {
    const r = await resolver().resolve({ url: 'https://doi.org/10.1234/same-origin' });
    assert.equal(r.status, 'found', JSON.stringify(r.attempts));
    assert.match(r.document!.sentences.join(" "), /tower is 26 metres/);
  });

  it('refuses a redirect from the mirror to another port of its host, and never reads it', async () => {
    const r = await resolver().resolve({ url: 'https://doi.org/10.1234/redirects' });
    assert.notEqual(r.status, 'found', JSON.stringify(r));
    assert.doesNotMatch(JSON.stringify(r), /HUNTER2/);
    assert.ok(r.attempts.some((a) => /blocked|forbidden|loopback/i.test(String(a.reason))), JSON.stringify(r.attempts));
    assert.equal(internalHits, 0, 'the internal service was never connected to');
  });
});
