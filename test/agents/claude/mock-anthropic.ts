// A scripted stand-in for the Anthropic Messages API on loopback, for Claude
// Code's ANTHROPIC_BASE_URL: each main-loop request (one that offers the Bash
// tool) is answered, streamed as SSE, with the next step of the script, a
// text or a tool call, and recorded so a test can read what the agent sent
// the model next. Side requests (a title, a summary, count_tokens) get a
// harmless answer and do not consume the script.

import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export type Step = { text: string } | { tool: string; input: Record<string, unknown> };

/** A Messages API request body, as far as the tests read it. */
export interface ModelRequest {
  model: string;
  system?: unknown;
  messages: { role: string; content: string | ContentBlock[] }[];
  tools?: { name: string }[];
}

export interface ContentBlock {
  type: string;
  text?: string;
  content?: string | ContentBlock[];
  tool_use_id?: string;
  is_error?: boolean;
}

export class MockAnthropic {
  /** The main-loop requests, in order. */
  readonly requests: ModelRequest[] = [];
  /** Every other request, by path: for a test that wants to know what else Claude asked. */
  readonly sideRequests: string[] = [];
  private readonly server: Server;
  private next = 0;
  private ids = 0;

  constructor(private readonly script: Step[]) {
    this.server = createServer((req, res) => this.handle(req, res));
  }

  /** Listens on 127.0.0.1 on a free port; resolves to the base URL. */
  async start(): Promise<string> {
    await new Promise<void>((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(0, '127.0.0.1', resolve);
    });
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = req.url ?? '/';
      const body = parseBody(Buffer.concat(chunks));
      const main = req.method === 'POST' && (path === '/v1/messages' || path.startsWith('/v1/messages?')) && body !== undefined && (body.tools ?? []).some((t) => t.name === 'Bash');
      if (!main) {
        this.sideRequests.push(`${req.method} ${path}`);
        if (req.method === 'POST' && path.startsWith('/v1/messages/count_tokens')) return json(res, 200, { input_tokens: 1 });
        if (req.method === 'POST' && path.startsWith('/v1/messages') && body) return this.stream(res, body.model, { text: 'ok' });
        return json(res, 404, { type: 'error', error: { type: 'not_found_error', message: `mock: no ${req.method} ${path}` } });
      }
      this.requests.push(body);
      // Past the end of the script the model just ends its turn.
      this.stream(res, body.model, this.script[this.next++] ?? { text: 'done' });
    });
  }

  /** One assistant message as the Messages API streams it. */
  private stream(res: ServerResponse, model: string, step: Step): void {
    const id = ++this.ids;
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    const send = (type: string, data: object) => res.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
    send('message_start', { message: { id: `msg_mock_${id}`, type: 'message', role: 'assistant', model, content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 1, output_tokens: 1 } } });
    if ('tool' in step) {
      send('content_block_start', { index: 0, content_block: { type: 'tool_use', id: `toolu_mock_${id}`, name: step.tool, input: {} } });
      send('content_block_delta', { index: 0, delta: { type: 'input_json_delta', partial_json: JSON.stringify(step.input) } });
    } else {
      send('content_block_start', { index: 0, content_block: { type: 'text', text: '' } });
      send('content_block_delta', { index: 0, delta: { type: 'text_delta', text: step.text } });
    }
    send('content_block_stop', { index: 0 });
    send('message_delta', { delta: { stop_reason: 'tool' in step ? 'tool_use' : 'end_turn', stop_sequence: null }, usage: { output_tokens: 1 } });
    send('message_stop', {});
    res.end();
  }
}

function parseBody(raw: Buffer): ModelRequest | undefined {
  try {
    const body = JSON.parse(raw.toString('utf8')) as unknown;
    return body !== null && typeof body === 'object' ? (body as ModelRequest) : undefined;
  } catch {
    return undefined;
  }
}

function json(res: ServerResponse, status: number, value: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(value));
}

/** Everything the model was sent in a request, as text: for "the reason reached the model". */
export const requestText = (r: ModelRequest): string => JSON.stringify([r.system ?? null, r.messages]);

/** The tool_result blocks of a request's last user message: what the model is shown of the tool call it made. */
export function toolResults(r: ModelRequest): ContentBlock[] {
  const last = [...r.messages].reverse().find((m) => m.role === 'user' && Array.isArray(m.content) && m.content.some((b) => b.type === 'tool_result'));
  return last && Array.isArray(last.content) ? last.content.filter((b) => b.type === 'tool_result') : [];
}

/** A tool_result's content as text. */
export const resultText = (b: ContentBlock): string =>
  typeof b.content === 'string' ? b.content : (b.content ?? []).map((c) => c.text ?? '').join('');
