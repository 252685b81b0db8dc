/**
 * Scripted mock of OpenAI chat completions (`POST /v1/chat/completions`, SSE with
 * `stream_options.include_usage`) for OpenCode's `@ai-sdk/openai-compatible` provider.
 *
 * Tool turns become `tool_calls` (e.g. name 'bash' with {command, description}, or 'question'
 * with {questions:[…]}). The title request (system prompt "You are a title generator…", no tools)
 * never consumes a turn, nor does Qwen Code's follow-up suggestion request (its last user message starts
 * "[SUGGESTION MODE: …", sent with the tools after a turn of two or more model replies): that one is answered
 * with empty text, which Qwen Code takes as "no suggestion".
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
import { openaiErrorBody } from './openai-responses';

interface ChatBody {
  model?: string;
  stream?: boolean;
  messages?: Array<{ role: string; content: unknown }>;
  tools?: Array<{ function?: { name?: string } }>;
}

function contentText(c: unknown): string {
  if (typeof c === 'string') return c;
  if (Array.isArray(c))
    return c.map((x) => (x && typeof x === 'object' && 'text' in x ? String((x as { text: unknown }).text) : '')).join(' ');
  return '';
}

class ChatHandler implements ProtocolHandler {
  name = 'openai-chat';
  private chatCounter = 0;
  private callCounter = 0;

  classify(method: string, path: string, body: unknown): ReturnType<ProtocolHandler['classify']> {
    if (method === 'POST' && /\/chat\/completions$/.test(path)) {
      const b = (body && typeof body === 'object' ? body : {}) as ChatBody;
      const msgs = b.messages ?? [];
      const sys = msgs
        .filter((m) => m.role === 'system')
        .map((m) => contentText(m.content))
        .join('\n');
      const last = msgs[msgs.length - 1];
      const extra = {
        model: b.model,
        stream: b.stream === true,
        n_messages: msgs.length,
        last_role: last?.role,
        last_content: contentText(last?.content).slice(0, 200),
        tools: (b.tools ?? []).map((t) => t.function?.name),
      };
      if (last?.role === 'user' && contentText(last.content).startsWith('[SUGGESTION MODE:'))
        return { kind: 'suggestion', agent: false, extra };
      if (/title generator/i.test(sys) || !(b.tools?.length ?? 0)) return { kind: 'title', agent: false, extra };
      return { kind: 'agent', agent: true, extra };
    }
    return null;
  }

  notFound(path: string): unknown {
    return { error: { message: `mock: no route for ${path}`, type: 'invalid_request_error', param: null, code: 'not_found' } };
  }

  async serveSide(ctx: ServeContext, kind: string): Promise<void> {
    const text = kind === 'suggestion' ? '' : (ctx.script.title ?? 'Mock session');
    await this.serveText(ctx, { type: 'text', text, firstDelayMs: 0, delayMs: 0, chunks: 1000 });
  }

  serveError(ctx: ServeContext, turn: ErrorTurn): void {
    sendJson(ctx.res, turn.status, turn.body ?? openaiErrorBody(turn.status, turn.message), {
      'x-request-id': `req_mock_${ctx.entry.n}`,
      ...(turn.headers ?? {}),
    });
  }

  private chunk(ctx: ServeContext, id: string, delta: Record<string, unknown>, finish: string | null = null): boolean {
    const b = (ctx.body ?? {}) as ChatBody;
    return sse(ctx, {
      id,
      object: 'chat.completion.chunk',
      created: Math.floor(Date.now() / 1000),
      model: b.model ?? 'mock-model',
      choices: [{ index: 0, delta, finish_reason: finish }],
    });
  }

  private end(ctx: ServeContext, id: string, finish: string, outTokens: number): void {
    const b = (ctx.body ?? {}) as ChatBody;
    this.chunk(ctx, id, {}, finish);
    const inTok = promptTokens(ctx);
    logUsage(ctx, inTok, outTokens);
    sse(ctx, {
      id,
      object: 'chat.completion.chunk',
      created: Math.floor(Date.now() / 1000),
      model: b.model ?? 'mock-model',
      choices: [],
      usage: { prompt_tokens: inTok, completion_tokens: outTokens, total_tokens: inTok + outTokens },
    });
    sse(ctx, '[DONE]');
    ctx.res.end();
  }

  private async streamText(
    ctx: ServeContext,
    id: string,
    turn: Pick<TextTurn, 'text' | 'chunks' | 'firstDelayMs' | 'delayMs' | 'durationMs'>,
  ): Promise<boolean> {
    const parts = splitChunks(turn.text, turn.chunks);
    const delays = chunkDelays(turn, parts.length);
    for (let i = 0; i < parts.length; i++) {
      if (!(await abortableSleep(ctx, delays[i]!))) return false;
      this.chunk(ctx, id, { content: parts[i] });
    }
    return true;
  }

  async serveText(ctx: ServeContext, turn: TextTurn): Promise<void> {
    const b = (ctx.body ?? {}) as ChatBody;
    const id = `chatcmpl-mock-${++this.chatCounter}`;
    if (b.stream !== true) {
      await abortableSleep(ctx, turn.firstDelayMs ?? 0);
      const inTok = promptTokens(ctx);
      const outTok = approxTokens(turn.text);
      logUsage(ctx, inTok, outTok);
      sendJson(ctx.res, 200, {
        id,
        object: 'chat.completion',
        created: Math.floor(Date.now() / 1000),
        model: b.model ?? 'mock-model',
        choices: [{ index: 0, message: { role: 'assistant', content: turn.text }, finish_reason: 'stop' }],
        usage: { prompt_tokens: inTok, completion_tokens: outTok, total_tokens: inTok + outTok },
      });
      return;
    }
    startSse(ctx.res);
    this.chunk(ctx, id, { role: 'assistant', content: '' });
    if (!(await this.streamText(ctx, id, turn))) return;
    this.end(ctx, id, 'stop', approxTokens(turn.text));
  }

  async serveTool(ctx: ServeContext, turn: ToolTurn): Promise<void> {
    const id = `chatcmpl-mock-${++this.chatCounter}`;
    const callId = `call_mock_${++this.callCounter}`;
    startSse(ctx.res);
    this.chunk(ctx, id, { role: 'assistant', content: '' });
    if (turn.text) {
      if (!(await this.streamText(ctx, id, { text: turn.text, firstDelayMs: turn.firstDelayMs, delayMs: turn.delayMs }))) return;
    } else if (!(await abortableSleep(ctx, turn.firstDelayMs ?? 300))) return;
    const args = typeof turn.input === 'string' ? turn.input : JSON.stringify(turn.input);
    this.chunk(ctx, id, { tool_calls: [{ index: 0, id: callId, type: 'function', function: { name: turn.name, arguments: '' } }] });
    const half = Math.ceil(args.length / 2);
    for (const part of [args.slice(0, half), args.slice(half)]) {
      if (!(await abortableSleep(ctx, turn.delayMs ?? 40))) return;
      this.chunk(ctx, id, { tool_calls: [{ index: 0, function: { arguments: part } }] });
    }
    ctx.log({ event: 'tool_call', name: turn.name, call_id: callId });
    this.end(ctx, id, 'tool_calls', 30);
  }

  async serveHang(ctx: ServeContext, turn: HangTurn): Promise<void> {
    const id = `chatcmpl-mock-${++this.chatCounter}`;
    startSse(ctx.res);
    this.chunk(ctx, id, { role: 'assistant', content: '' });
    if (turn.text && !(await this.streamText(ctx, id, { text: turn.text }))) return;
    const end = Date.now() + (turn.maxMs ?? 600_000);
    while (Date.now() < end) {
      if (!(await abortableSleep(ctx, Math.min(5000, end - Date.now())))) return;
      if (!ctx.aborted()) ctx.res.write(': keepalive\n\n');
    }
    if (!turn.text && !(await this.streamText(ctx, id, { text: 'Done.' }))) return;
    this.end(ctx, id, 'stop', 5);
  }
}

export function createChatMock(opts: MockOptions): MockServer {
  return new MockServer(new ChatHandler(), opts);
}
