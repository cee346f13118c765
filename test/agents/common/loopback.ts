// A recording HTTP server on 127.0.0.1 for an agent's model API: each
// request's body is read whole and handed, with the response, to the
// mock's own handler, which answers JSON or a stream of server-sent events.
// The suite runs with no network but loopback, so this is the only model
// the agents can reach.

import { type Server, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request as it arrived. */
export interface Received {
  method: string;
  url: string;
  body: string;
}

export type Handler = (req: Received, res: ServerResponse) => void;

export class LoopbackServer {
  /** Every request, in arrival order. */
  readonly received: Received[] = [];

  private constructor(private readonly server: Server) {}

  /** Listens on a free loopback port. A handler that throws answers 500, saying why. */
  static async start(handler: Handler): Promise<LoopbackServer> {
    const server = createServer();
    const self = new LoopbackServer(server);
    server.on('request', (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const received = { method: req.method ?? 'GET', url: req.url ?? '/', body: Buffer.concat(chunks).toString('utf8') };
        self.received.push(received);
        try {
          handler(received, res);
        } catch (err) {
          if (!res.headersSent) sendJson(res, 500, { error: { code: 500, message: `mock model: ${String(err)}` } });
          else res.end();
        }
      });
    });
    await new Promise<void>((ok, fail) => {
      server.once('error', fail);
      server.listen(0, '127.0.0.1', ok);
    });
    return self;
  }

  /** `http://127.0.0.1:PORT`, no trailing slash. */
  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((ok) => this.server.close(() => ok()));
  }
}

/** One server-sent event: `event:` when named, then its JSON `data:`. */
export interface SseEvent {
  event?: string;
  data: unknown;
}

/** Answers 200 with `events` as an SSE stream, each ended by a blank line (`eol` twice), and ends the response. */
export function sendSse(res: ServerResponse, events: SseEvent[], eol = '\n'): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  for (const e of events) res.write(`${e.event !== undefined ? `event: ${e.event}${eol}` : ''}data: ${JSON.stringify(e.data)}${eol}${eol}`);
  res.end();
}

export function sendJson(res: ServerResponse, status: number, value: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(value));
}

/** The body as a JSON object, or undefined when it is not one. */
export function jsonBody<T extends object>(raw: string): T | undefined {
  try {
    const v = JSON.parse(raw) as unknown;
    return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as T) : undefined;
  } catch {
    return undefined;
  }
}
