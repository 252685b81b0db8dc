/**
 * Scripted mock of the Gemini API (`@google/genai`, which Gemini CLI points at GOOGLE_GEMINI_BASE_URL), as
 * Gemini CLI 0.61.0 uses it, as its requests to the loopback mock show:
 *
 *   POST /v1beta/models/<m>:streamGenerateContent?alt=sse   the agent turn (SSE of GenerateContentResponse)
 *   POST /v1beta/models/<m>:generateContent                  side requests: the model router's classifier
 *                                                            (system "Task Routing AI", a JSON schema), summaries
 *   POST /v1beta/models/<m>:countTokens                      side
 *
 * Only stream requests consume scripted turns, so an error turn fails the main model while the router still
 * answers (a server error the CLI retries, not a router failure). Tool turns become `functionCall` parts,
 * e.g. run_shell_command {command, description} or write_file {file_path, content}.
 */
import {
  type ErrorTurn,
  type HangTurn,
  type MockOptions,
  MockServer,
  type ProtocolHandler,
  type ServeContext,
  type TextTurn,
  type ToolTurn,
  abortableSleep,
  approxTokens,
  logUsage,
  promptTokens,
  chunkDelays,
  sendJson,
  splitChunks,
  sse,
  startSse,
} from './common';

interface GeminiBody {
  contents?: Array<{ role?: string; parts?: Array<Record<string, unknown>> }>;
  systemInstruction?: { parts?: Array<{ text?: string }> };
  tools?: Array<{ functionDeclarations?: Array<{ name?: string }> }>;
}

/** The router's answer: score 25 routes to the flash model (FACTS §6). */
export const ROUTER_ANSWER = '{"complexity_reasoning":"Mock: simple, single-step request.","complexity_score":25}';

const STATUS_NAME: Record<number, string> = {
  400: 'INVALID_ARGUMENT',
  401: 'UNAUTHENTICATED',
  403: 'PERMISSION_DENIED',
  404: 'NOT_FOUND',
  429: 'RESOURCE_EXHAUSTED',
  500: 'INTERNAL',
  503: 'UNAVAILABLE',
};

export function geminiErrorBody(status: number, message?: string): unknown {
  return {
    error: {
      code: status,
      message: message ?? (status === 400 ? 'API key not valid. Please pass a valid API key.' : 'Internal error encountered.'),
      status: STATUS_NAME[status] ?? 'UNKNOWN',
    },
  };
}

function modelOf(path: string): string {
  return /\/models\/([^/:]+):/.exec(path)?.[1] ?? 'gemini-mock';
}

function systemText(b: GeminiBody): string {
  return (b.systemInstruction?.parts ?? []).map((p) => p.text ?? '').join('\n');
}

class GeminiHandler implements ProtocolHandler {
  name = 'gemini';
  private responseCounter = 0;

  classify(method: string, path: string, body: unknown): ReturnType<ProtocolHandler['classify']> {
    if (method !== 'POST') return null;
    const m = /\/v1(?:beta|alpha)?\/models\/[^/:]+:(streamGenerateContent|generateContent|countTokens)$/.exec(path);
    if (!m) return null;
    const b = (body && typeof body === 'object' ? body : {}) as GeminiBody;
    const contents = b.contents ?? [];
    const last = contents[contents.length - 1];
    const extra = {
      model: modelOf(path),
      n_contents: contents.length,
      n_tools: (b.tools ?? []).reduce((n, t) => n + (t.functionDeclarations?.length ?? 0), 0),
      system_head: systemText(b).slice(0, 120),
      last_role: last?.role,
      last_parts: (last?.parts ?? []).map((p) => Object.keys(p)[0]),
    };
    if (m[1] === 'countTokens') return { kind: 'count_tokens', agent: false, extra };
    if (m[1] === 'streamGenerateContent') return { kind: 'agent', agent: true, extra };
    return { kind: /Task Routing/.test(systemText(b)) ? 'router' : 'side', agent: false, extra };
  }

  notFound(path: string): unknown {
    return { error: { code: 404, message: `mock: no route for ${path}`, status: 'NOT_FOUND' } };
  }

  private response(ctx: ServeContext, parts: Array<Record<string, unknown>>, finish: boolean, outTokens = 0): Record<string, unknown> {
    const inTok = promptTokens(ctx);
    if (outTokens > 0) logUsage(ctx, inTok, outTokens);
    return {
      candidates: [{ content: { parts, role: 'model' }, index: 0, ...(finish ? { finishReason: 'STOP' } : {}) }],
      usageMetadata: { promptTokenCount: inTok, candidatesTokenCount: outTokens, totalTokenCount: inTok + outTokens },
      modelVersion: modelOf(ctx.entry.path),
      responseId: `mock-resp-${String(this.responseCounter).padStart(4, '0')}`,
    };
  }

  async serveSide(ctx: ServeContext, kind: string): Promise<void> {
    if (kind === 'count_tokens') {
      sendJson(ctx.res, 200, { totalTokens: promptTokens(ctx) });
      return;
    }
    const text = kind === 'router' ? ROUTER_ANSWER : (ctx.script.title ?? 'Mock session summary.');
    sendJson(ctx.res, 200, this.response(ctx, [{ text }], true, approxTokens(text)));
  }

  serveError(ctx: ServeContext, turn: ErrorTurn): void {
    sendJson(ctx.res, turn.status, turn.body ?? geminiErrorBody(turn.status, turn.message), turn.headers ?? {});
  }

  /** Streams text chunks; false when the client went away. */
  private async streamText(
    ctx: ServeContext,
    turn: Pick<TextTurn, 'text' | 'chunks' | 'firstDelayMs' | 'delayMs' | 'durationMs'>,
    finishLast: boolean,
  ): Promise<boolean> {
    const parts = splitChunks(turn.text, turn.chunks);
    const delays = chunkDelays(turn, parts.length);
    for (let i = 0; i < parts.length; i++) {
      if (!(await abortableSleep(ctx, delays[i]!))) return false;
      const last = i === parts.length - 1;
      if (!sse(ctx, this.response(ctx, [{ text: parts[i] }], finishLast && last, last ? approxTokens(turn.text) : 0))) return false;
    }
    return true;
  }

  async serveText(ctx: ServeContext, turn: TextTurn): Promise<void> {
    this.responseCounter++;
    startSse(ctx.res);
    if (await this.streamText(ctx, turn, true)) ctx.res.end();
  }

  async serveTool(ctx: ServeContext, turn: ToolTurn): Promise<void> {
    this.responseCounter++;
    startSse(ctx.res);
    if (turn.text) {
      if (!(await this.streamText(ctx, { text: turn.text, firstDelayMs: turn.firstDelayMs, delayMs: turn.delayMs }, false))) return;
    } else if (!(await abortableSleep(ctx, turn.firstDelayMs ?? 300))) return;
    if (!(await abortableSleep(ctx, turn.delayMs ?? 40))) return;
    const args = typeof turn.input === 'string' ? { command: turn.input } : turn.input;
    sse(ctx, this.response(ctx, [{ functionCall: { name: turn.name, args } }], true, 30));
    ctx.log({ event: 'tool_call', name: turn.name });
    ctx.res.end();
  }

  /** Headers, then silence: the CLI shows Thinking... until it gives up or the user cancels (FACTS §6). */
  async serveHang(ctx: ServeContext, turn: HangTurn): Promise<void> {
    this.responseCounter++;
    startSse(ctx.res);
    if (turn.text && !(await this.streamText(ctx, { text: turn.text }, false))) return;
    if (!(await abortableSleep(ctx, turn.maxMs ?? 600_000))) return;
    if (await this.streamText(ctx, { text: turn.text ? '' : 'Done.' }, true)) ctx.res.end();
  }
}

export function createGeminiMock(opts: MockOptions): MockServer {
  return new MockServer(new GeminiHandler(), opts);
}
