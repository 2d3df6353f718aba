/**
 * Server-sent events over a hijacked fastify reply: the stream is written by hand (fastify has no SSE
 * of its own), with a comment heartbeat so proxies and idle timeouts keep the connection, and a hub
 * that knows every open stream so shutdown can end the ones still open.
 */
import type { FastifyReply } from 'fastify';

const HEARTBEAT_MS = 15_000;

export class SseStream {
  private closed = false;
  private readonly heartbeat: NodeJS.Timeout;
  private readonly onCloseFns: (() => void)[] = [];

  constructor(private readonly reply: FastifyReply) {
    reply.hijack();
    const raw = reply.raw;
    raw.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
    });
    // Reconnect after 2 s if the connection drops; Last-Event-ID then resumes the replay.
    raw.write('retry: 2000\n\n');
    this.heartbeat = setInterval(() => this.comment('keep-alive'), HEARTBEAT_MS);
    this.heartbeat.unref();
    raw.on('close', () => this.finish());
  }

  get isClosed(): boolean {
    return this.closed;
  }

  onClose(fn: () => void): void {
    if (this.closed) fn();
    else this.onCloseFns.push(fn);
  }

  send(event: string, data: unknown, id?: number): void {
    if (this.closed) return;
    const lines = [`event: ${event}`];
    if (id !== undefined) lines.push(`id: ${id}`);
    for (const line of JSON.stringify(data).split('\n')) lines.push(`data: ${line}`);
    this.reply.raw.write(`${lines.join('\n')}\n\n`);
  }

  comment(text: string): void {
    if (!this.closed) this.reply.raw.write(`: ${text}\n\n`);
  }

  end(): void {
    if (!this.closed) this.reply.raw.end();
    this.finish();
  }

  private finish(): void {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.heartbeat);
    for (const fn of this.onCloseFns.splice(0)) fn();
  }
}

export class SseHub {
  private readonly streams = new Set<SseStream>();

  open(reply: FastifyReply): SseStream {
    const s = new SseStream(reply);
    this.streams.add(s);
    s.onClose(() => this.streams.delete(s));
    return s;
  }

  get size(): number {
    return this.streams.size;
  }

  /** Ends every open stream with a final event (shutdown). */
  closeAll(event = 'shutdown', data: unknown = { message: 'server shutting down' }): void {
    for (const s of [...this.streams]) {
      s.send(event, data);
      s.end();
    }
  }
}
