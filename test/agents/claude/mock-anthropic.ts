// A scripted stand-in for the Anthropic Messages API on loopback, for Claude
// Code's ANTHROPIC_BASE_URL: each main-loop request (one that offers the Bash
// tool) is answered, streamed as SSE, with the next step of the script, a
// text or a tool call, and recorded so a test can read what the agent sent
// the model next. Side requests (a title, a summary, count_tokens) get a
// harmless answer and do not consume the script.

import type { ServerResponse } from 'node:http';
import { LoopbackServer, type Received, type SseEvent, jsonBody, sendJson, sendSse } from '../common/loopback.js';

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
  private server: LoopbackServer | undefined;
  private next = 0;
  private ids = 0;

  constructor(private readonly script: Step[]) {}

  /** Listens on 127.0.0.1 on a free port; resolves to the base URL. */
  async start(): Promise<string> {
    this.server = await LoopbackServer.start((req, res) => this.handle(req, res));
    return this.server.url;
  }

  async close(): Promise<void> {
    await this.server?.close();
  }

  private handle(req: Received, res: ServerResponse): void {
    const path = req.url;
    const body = jsonBody<ModelRequest>(req.body);
    const main = req.method === 'POST' && (path === '/v1/messages' || path.startsWith('/v1/messages?')) && body !== undefined && (body.tools ?? []).some((t) => t.name === 'Bash');
    if (!main) {
      this.sideRequests.push(`${req.method} ${path}`);
      if (req.method === 'POST' && path.startsWith('/v1/messages/count_tokens')) return sendJson(res, 200, { input_tokens: 1 });
      if (req.method === 'POST' && path.startsWith('/v1/messages') && body) return this.stream(res, body.model, { text: 'ok' });
      return sendJson(res, 404, { type: 'error', error: { type: 'not_found_error', message: `mock: no ${req.method} ${path}` } });
    }
    this.requests.push(body);
    // Past the end of the script the model just ends its turn.
    this.stream(res, body.model, this.script[this.next++] ?? { text: 'done' });
  }

  /** One assistant message as the Messages API streams it. */
  private stream(res: ServerResponse, model: string, step: Step): void {
    const id = ++this.ids;
    const ev = (type: string, data: object): SseEvent => ({ event: type, data: { type, ...data } });
    const block = 'tool' in step
      ? [ev('content_block_start', { index: 0, content_block: { type: 'tool_use', id: `toolu_mock_${id}`, name: step.tool, input: {} } }), ev('content_block_delta', { index: 0, delta: { type: 'input_json_delta', partial_json: JSON.stringify(step.input) } })]
      : [ev('content_block_start', { index: 0, content_block: { type: 'text', text: '' } }), ev('content_block_delta', { index: 0, delta: { type: 'text_delta', text: step.text } })];
    sendSse(res, [
      ev('message_start', { message: { id: `msg_mock_${id}`, type: 'message', role: 'assistant', model, content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 1, output_tokens: 1 } } }),
      ...block,
      ev('content_block_stop', { index: 0 }),
      ev('message_delta', { delta: { stop_reason: 'tool' in step ? 'tool_use' : 'end_turn', stop_sequence: null }, usage: { output_tokens: 1 } }),
      ev('message_stop', {}),
    ]);
  }
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
