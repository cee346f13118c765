// A scripted Gemini API on loopback for the real Gemini CLI: each main-loop
// request (`:streamGenerateContent?alt=sse`, the one that carries `tools`)
// gets the next reply of the script as one SSE chunk, and is recorded so a
// test can read what the agent sent the model next. Utility calls (the
// router's classifier, countTokens) get a harmless answer and are recorded
// apart.

import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

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

  private constructor(
    private readonly server: Server,
    private readonly script: Reply[],
  ) {}

  static async start(script: Reply[]): Promise<MockModel> {
    let mock: MockModel | undefined;
    const server = createServer((req, res) => {
      mock!.handle(req, res).catch((err: unknown) => json(res, 500, { error: { code: 500, message: `mock model: ${String(err)}`, status: 'INTERNAL' } }));
    });
    mock = new MockModel(server, script);
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    return mock;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((done) => this.server.close(() => done()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    let raw = '';
    for await (const chunk of req) raw += String(chunk);
    const request: ModelRequest = { url: req.url ?? '', body: raw ? JSON.parse(raw) : {} };
    const url = request.url;
    if (url.includes(':streamGenerateContent') && request.body.tools !== undefined) {
      this.requests.push(request);
      const reply = this.script[this.next++] ?? { text: EXHAUSTED };
      const part = 'text' in reply ? { text: reply.text } : { functionCall: { name: reply.call, args: reply.args } };
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end(`data: ${JSON.stringify({ candidates: [{ content: { role: 'model', parts: [part] }, finishReason: 'STOP' }], usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 5, totalTokenCount: 15 } })}\r\n\r\n`);
      return;
    }
    this.utility.push(request);
    if (url.includes(':countTokens')) return json(res, 200, { totalTokens: 10 });
    if (url.includes(':generateContent') || url.includes(':streamGenerateContent')) {
      // Shaped to satisfy the JSON utility prompts Gemini sends (router classifier, next-speaker check).
      const text = JSON.stringify({ complexity_reasoning: 'simple', complexity_score: 1, reasoning: 'done', next_speaker: 'user', model_choice: 'flash' });
      return json(res, 200, { candidates: [{ content: { role: 'model', parts: [{ text }] }, finishReason: 'STOP' }] });
    }
    json(res, 404, { error: { code: 404, message: `mock model: no route for ${url}`, status: 'NOT_FOUND' } });
  }
}

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

/** The request as text, to look for a reason or a context anywhere in what was sent. */
export const sent = (r: ModelRequest): string => JSON.stringify(r.body.contents ?? []);

/** The function responses of the request's last turn: what the agent reports of the tool call just made. */
export function toolResults(r: ModelRequest): Array<{ name: string; response: Record<string, unknown> }> {
  const last = r.body.contents?.at(-1);
  return (last?.parts ?? []).flatMap((p) => (p.functionResponse ? [p.functionResponse as { name: string; response: Record<string, unknown> }] : []));
}
