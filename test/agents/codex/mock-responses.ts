// A scripted stand-in for the OpenAI Responses API on 127.0.0.1, as Codex
// 0.169 speaks it (`wire_api = "responses"`: POST /v1/responses, answered as
// SSE). Each model request takes the next scripted turn: a text answer or a
// call of Codex's shell tool, `exec_command` with a `cmd` string (what its
// `tools` array offers). Every request body is kept, so a test can read
// what the agent sent next: the tool output, the injected context.

import type { ServerResponse } from 'node:http';
import { LoopbackServer, jsonBody, sendJson, sendSse } from '../common/loopback.js';

export type Turn = { text: string } | { shell: string };

/** One item of a request's `input` list, as Codex sends it. */
export interface InputItem {
  type: string;
  role?: string;
  call_id?: string;
  output?: unknown;
  content?: { type: string; text?: string }[];
}

export interface ModelRequest {
  input: InputItem[];
  tools: { name?: string }[];
}

export class MockResponses {
  readonly requests: ModelRequest[] = [];
  private server: LoopbackServer | undefined;
  private turns: Turn[] = [];
  private calls = 0;

  /** Starts on an ephemeral loopback port; the URL is Codex's `base_url`. */
  async start(): Promise<string> {
    this.server = await LoopbackServer.start((req, res) => {
      const body = jsonBody<ModelRequest>(req.body);
      if (req.method !== 'POST' || !req.url.endsWith('/responses') || body === undefined) return sendJson(res, 404, { error: { message: 'not served by the mock' } });
      this.requests.push(body);
      this.answer(res, this.turns.shift() ?? { text: 'done' });
    });
    return `${this.server.url}/v1`;
  }

  /** The turns the next requests get, in order; once they run out, every answer is the text "done". */
  script(turns: Turn[]): void {
    this.turns = [...turns];
    this.requests.length = 0;
  }

  private answer(res: ServerResponse, turn: Turn): void {
    const n = ++this.calls;
    const id = `resp_${n}`;
    const item = 'shell' in turn
      ? { type: 'function_call', id: `fc_${n}`, call_id: `call_${n}`, name: 'exec_command', arguments: JSON.stringify({ cmd: turn.shell }) }
      : { type: 'message', id: `msg_${n}`, role: 'assistant', content: [{ type: 'output_text', text: turn.text }] };
    const ev = (type: string, data: object) => ({ event: type, data: { type, ...data } });
    sendSse(res, [
      ev('response.created', { response: { id } }),
      ev('response.output_item.added', { output_index: 0, item }),
      ev('response.output_item.done', { output_index: 0, item }),
      ev('response.completed', { response: { id, usage: { input_tokens: 1, output_tokens: 1, total_tokens: 2 } } }),
    ]);
  }

  async stop(): Promise<void> {
    await this.server?.close();
  }
}

/** The output Codex sent back for a tool call, as text. */
export function toolOutput(request: ModelRequest | undefined, callId: string): string | undefined {
  const item = request?.input.find((i) => i.type === 'function_call_output' && i.call_id === callId);
  if (!item) return undefined;
  return typeof item.output === 'string' ? item.output : JSON.stringify(item.output);
}

/** Every message text of a request (developer, user and assistant), joined: where injected context shows up. */
export function messageText(request: ModelRequest | undefined): string {
  return (request?.input ?? [])
    .filter((i) => i.type === 'message')
    .flatMap((i) => (i.content ?? []).map((c) => c.text ?? ''))
    .join('\n');
}
