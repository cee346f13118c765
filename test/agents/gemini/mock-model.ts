// A scripted Gemini API on loopback for the real Gemini CLI: each main-loop
// request (`:streamGenerateContent?alt=sse`, the one that carries `tools`)
// gets the next reply of the script as one SSE chunk, and is recorded so a
// test can read what the agent sent the model next. Utility calls (the
// router's classifier, countTokens) get a harmless answer and are recorded
// apart.

import { LoopbackServer, type Received, jsonBody, sendJson, sendSse } from '../common/loopback.js';
import type { ServerResponse } from 'node:http';

/** One model turn: text, or a call of one of the agent's tools. */
export type Reply = { text: string } | { call: string; args: Record<string, unknown> };

/** What the agent sent on one request, as parsed JSON. */
export interface ModelRequest {
  url: string;
  body: { contents?: Array<{ role: string; parts: Array<Record<string, unknown>> }>; tools?: Array<{ functionDeclarations?: Array<{ name: string }> }> };
}

// The answer once the script is used up: a test that sees it asked for too few turns.
const EXHAUSTED = 'mock model: script exhausted';

export class MockModel {
  /** Main-loop requests, in arrival order. */
  readonly requests: ModelRequest[] = [];
  /** Every other request (utility models, token counts, unknown paths). */
  readonly utility: ModelRequest[] = [];
  private next = 0;
  private server: LoopbackServer | undefined;

  private constructor(private readonly script: Reply[]) {}

  static async start(script: Reply[]): Promise<MockModel> {
    const mock = new MockModel(script);
    mock.server = await LoopbackServer.start((req, res) => mock.handle(req, res));
    return mock;
  }

  get url(): string {
    return this.server!.url;
  }

  close(): Promise<void> {
    return this.server!.close();
  }

  private handle(req: Received, res: ServerResponse): void {
    const request: ModelRequest = { url: req.url, body: req.body ? (jsonBody<ModelRequest['body']>(req.body) ?? {}) : {} };
    const url = request.url;
    if (url.includes(':streamGenerateContent') && request.body.tools !== undefined) {
      this.requests.push(request);
      const reply = this.script[this.next++] ?? { text: EXHAUSTED };
      const part = 'text' in reply ? { text: reply.text } : { functionCall: { name: reply.call, args: reply.args } };
      return sendSse(res, [{ data: { candidates: [{ content: { role: 'model', parts: [part] }, finishReason: 'STOP' }], usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 5, totalTokenCount: 15 } } }], '\r\n');
    }
    this.utility.push(request);
    if (url.includes(':countTokens')) return sendJson(res, 200, { totalTokens: 10 });
    if (url.includes(':generateContent') || url.includes(':streamGenerateContent')) {
      // Shaped to satisfy the JSON utility prompts Gemini sends (router classifier, next-speaker check).
      const text = JSON.stringify({ complexity_reasoning: 'simple', complexity_score: 1, reasoning: 'done', next_speaker: 'user', model_choice: 'flash' });
      return sendJson(res, 200, { candidates: [{ content: { role: 'model', parts: [{ text }] }, finishReason: 'STOP' }] });
    }
    sendJson(res, 404, { error: { code: 404, message: `mock model: no route for ${url}`, status: 'NOT_FOUND' } });
  }
}

/** The request as text, to look for a reason or a context anywhere in what was sent. */
export const sent = (r: ModelRequest): string => JSON.stringify(r.body.contents ?? []);

/** The function responses of the request's last turn: what the agent reports of the tool call just made. */
export function toolResults(r: ModelRequest): Array<{ name: string; response: Record<string, unknown> }> {
  const last = r.body.contents?.at(-1);
  return (last?.parts ?? []).flatMap((p) => (p.functionResponse ? [p.functionResponse as { name: string; response: Record<string, unknown> }] : []));
}
