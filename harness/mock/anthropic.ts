/**
 * Scripted mock of the Anthropic Messages API for Claude Code.
 *
 *   POST /v1/messages               agent turns (stream or not), side requests (no tools: titles, quota probes…)
 *   POST /v1/messages/count_tokens  answered with an estimate, never consumes a turn
 *   anything else                   logged, 404 JSON
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

interface MsgBody {
  model?: string;
  stream?: boolean;
  tools?: unknown[];
  system?: unknown;
  messages?: Array<{ role: string; content: unknown }>;
  max_tokens?: number;
}

function systemText(b: MsgBody): string {
  const s = b.system;
  if (typeof s === 'string') return s;
  if (Array.isArray(s))
    return s.map((x) => (x && typeof x === 'object' && 'text' in x ? String((x as { text: unknown }).text) : '')).join('\n');
  return '';
}

/** The conversation's first user message: a subagent's is its task. */
function firstUserText(b: MsgBody): string {
  const c = b.messages?.find((x) => x.role === 'user')?.content;
  if (typeof c === 'string') return c;
  return Array.isArray(c)
    ? c
        .map((x) => (x && typeof x === 'object' && (x as { type?: unknown }).type === 'text' ? String((x as { text: unknown }).text) : ''))
        .join('\n')
    : '';
}

function lastUserText(b: MsgBody): string {
  const m = b.messages?.[b.messages.length - 1];
  if (!m) return '';
  if (typeof m.content === 'string') return m.content;
  if (Array.isArray(m.content))
    return m.content
      .map((c) => {
        if (!c || typeof c !== 'object') return '';
        const o = c as Record<string, unknown>;
        if (o.type === 'text') return String(o.text);
        if (o.type === 'tool_result') return `[tool_result ${typeof o.content === 'string' ? o.content : JSON.stringify(o.content)}]`;
        return `[${String(o.type)}]`;
      })
      .join(' ');
  return '';
}

const ERROR_TYPES: Record<number, [string, string]> = {
  400: ['invalid_request_error', 'Invalid request'],
  401: ['authentication_error', 'invalid x-api-key'],
  403: ['permission_error', 'Permission denied'],
  404: ['not_found_error', 'Not found'],
  413: ['request_too_large', 'Request too large'],
  429: ['rate_limit_error', 'Rate limited'],
  500: ['api_error', 'Internal server error'],
  529: ['overloaded_error', 'Overloaded'],
};

export function anthropicErrorBody(status: number, errorType?: string, message?: string): unknown {
  const [t, m] = ERROR_TYPES[status] ?? ['api_error', `HTTP ${status}`];
  return { type: 'error', error: { type: errorType ?? t, message: message ?? m }, request_id: `req_mock_${Date.now().toString(36)}` };
}

class AnthropicHandler implements ProtocolHandler {
  name = 'anthropic';
  private msgCounter = 0;
  private toolCounter = 0;

  classify(method: string, path: string, body: unknown): ReturnType<ProtocolHandler['classify']> {
    const b = (body && typeof body === 'object' ? body : {}) as MsgBody;
    if (method === 'POST' && path === '/v1/messages/count_tokens') return { kind: 'count_tokens', agent: false };
    // connectivity probe (sent when nonessential traffic is allowed)
    if ((method === 'HEAD' || method === 'GET') && path === '/api/hello') return { kind: 'hello', agent: false };
    if (method === 'POST' && path === '/v1/messages') {
      const sys = systemText(b);
      const extra = {
        model: b.model,
        stream: b.stream === true,
        n_messages: b.messages?.length ?? 0,
        n_tools: b.tools?.length ?? 0,
        max_tokens: b.max_tokens,
        system_head: sys.slice(0, 160),
        last_user: lastUserText(b).slice(0, 300),
      };
      if ((b.tools?.length ?? 0) > 0) return { kind: 'agent', agent: true, extra, firstUser: firstUserText(b) };
      const kind = /title/i.test(sys) ? 'title' : b.max_tokens === 1 ? 'quota' : 'side';
      return { kind, agent: false, extra };
    }
    return null;
  }

  notFound(path: string): unknown {
    return anthropicErrorBody(404, 'not_found_error', `mock: no route for ${path}`);
  }

  async serveSide(ctx: ServeContext, kind: string): Promise<void> {
    const b = (ctx.body ?? {}) as MsgBody;
    if (kind === 'hello') {
      sendJson(ctx.res, 200, {});
      return;
    }
    if (kind === 'count_tokens') {
      sendJson(ctx.res, 200, { input_tokens: promptTokens(ctx) });
      return;
    }
    const title = ctx.script.title ?? 'Mock session';
    const text = kind === 'title' ? (/json/i.test(systemText(b)) ? JSON.stringify({ title }) : title) : kind === 'quota' ? 'ok' : title;
    await this.serveText(ctx, { type: 'text', text, firstDelayMs: 0, delayMs: 0, chunks: 1000 });
  }

  serveError(ctx: ServeContext, turn: ErrorTurn): void {
    const body = turn.body ?? anthropicErrorBody(turn.status, turn.errorType, turn.message);
    sendJson(ctx.res, turn.status, body, { 'request-id': `req_mock_${ctx.entry.n}`, ...(turn.headers ?? {}) });
  }

  private start(ctx: ServeContext, b: MsgBody): string {
    const id = `msg_mock_${String(++this.msgCounter).padStart(4, '0')}`;
    startSse(ctx.res, { 'request-id': `req_mock_${ctx.entry.n}` });
    sse(
      ctx,
      {
        type: 'message_start',
        message: {
          id,
          type: 'message',
          role: 'assistant',
          model: b.model ?? 'claude-mock',
          content: [],
          stop_reason: null,
          stop_sequence: null,
          usage: { input_tokens: promptTokens(ctx), cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens: 1 },
        },
      },
      'message_start',
    );
    sse(ctx, { type: 'ping' }, 'ping');
    return id;
  }

  private finish(ctx: ServeContext, stopReason: string, outTokens: number): void {
    logUsage(ctx, promptTokens(ctx), outTokens);
    sse(
      ctx,
      { type: 'message_delta', delta: { stop_reason: stopReason, stop_sequence: null }, usage: { output_tokens: outTokens } },
      'message_delta',
    );
    sse(ctx, { type: 'message_stop' }, 'message_stop');
    ctx.res.end();
  }

  /** Stream a text content block at `index`. Returns false if the client went away. */
  private async streamText(
    ctx: ServeContext,
    index: number,
    turn: Pick<TextTurn, 'text' | 'chunks' | 'firstDelayMs' | 'delayMs' | 'durationMs'>,
  ): Promise<boolean> {
    sse(ctx, { type: 'content_block_start', index, content_block: { type: 'text', text: '' } }, 'content_block_start');
    const parts = splitChunks(turn.text, turn.chunks);
    const delays = chunkDelays(turn, parts.length);
    for (let i = 0; i < parts.length; i++) {
      if (!(await abortableSleep(ctx, delays[i]!))) return false;
      sse(ctx, { type: 'content_block_delta', index, delta: { type: 'text_delta', text: parts[i] } }, 'content_block_delta');
    }
    sse(ctx, { type: 'content_block_stop', index }, 'content_block_stop');
    return true;
  }

  async serveText(ctx: ServeContext, turn: TextTurn): Promise<void> {
    const b = (ctx.body ?? {}) as MsgBody;
    if (b.stream !== true) {
      await abortableSleep(ctx, turn.durationMs ?? turn.firstDelayMs ?? 0);
      sendJson(ctx.res, 200, {
        id: `msg_mock_${String(++this.msgCounter).padStart(4, '0')}`,
        type: 'message',
        role: 'assistant',
        model: b.model ?? 'claude-mock',
        content: [{ type: 'text', text: turn.text }],
        stop_reason: 'end_turn',
        stop_sequence: null,
        usage: { input_tokens: promptTokens(ctx), output_tokens: approxTokens(turn.text) },
      });
      logUsage(ctx, promptTokens(ctx), approxTokens(turn.text));
      return;
    }
    this.start(ctx, b);
    if (!(await this.streamText(ctx, 0, turn))) return;
    this.finish(ctx, 'end_turn', approxTokens(turn.text));
  }

  async serveTool(ctx: ServeContext, turn: ToolTurn): Promise<void> {
    const b = (ctx.body ?? {}) as MsgBody;
    const toolId = `toolu_mock_${String(++this.toolCounter).padStart(4, '0')}`;
    const input = typeof turn.input === 'string' ? { input: turn.input } : turn.input;
    if (b.stream !== true) {
      const content: unknown[] = [];
      if (turn.text) content.push({ type: 'text', text: turn.text });
      content.push({ type: 'tool_use', id: toolId, name: turn.name, input });
      sendJson(ctx.res, 200, {
        id: `msg_mock_${String(++this.msgCounter).padStart(4, '0')}`,
        type: 'message',
        role: 'assistant',
        model: b.model ?? 'claude-mock',
        content,
        stop_reason: 'tool_use',
        stop_sequence: null,
        usage: { input_tokens: promptTokens(ctx), output_tokens: 30 },
      });
      logUsage(ctx, promptTokens(ctx), 30);
      return;
    }
    this.start(ctx, b);
    let index = 0;
    if (turn.text) {
      if (!(await this.streamText(ctx, index++, { text: turn.text, firstDelayMs: turn.firstDelayMs, delayMs: turn.delayMs }))) return;
    } else if (!(await abortableSleep(ctx, turn.firstDelayMs ?? 300))) return;
    sse(
      ctx,
      { type: 'content_block_start', index, content_block: { type: 'tool_use', id: toolId, name: turn.name, input: {} } },
      'content_block_start',
    );
    const json = JSON.stringify(input);
    const third = Math.ceil(json.length / 3);
    for (const part of [json.slice(0, third), json.slice(third, 2 * third), json.slice(2 * third)]) {
      if (!(await abortableSleep(ctx, turn.delayMs ?? 40))) return;
      sse(ctx, { type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: part } }, 'content_block_delta');
    }
    sse(ctx, { type: 'content_block_stop', index }, 'content_block_stop');
    ctx.log({ event: 'tool_use', id: toolId, name: turn.name });
    this.finish(ctx, 'tool_use', 30);
  }

  async serveHang(ctx: ServeContext, turn: HangTurn): Promise<void> {
    const b = (ctx.body ?? {}) as MsgBody;
    this.start(ctx, b);
    if (turn.text && !(await this.streamText(ctx, 0, { text: turn.text }))) return;
    const end = Date.now() + (turn.maxMs ?? 600_000);
    while (Date.now() < end) {
      if (!(await abortableSleep(ctx, Math.min(5000, end - Date.now())))) return;
      sse(ctx, { type: 'ping' }, 'ping');
    }
    if (!turn.text && !(await this.streamText(ctx, 0, { text: 'Done.' }))) return;
    this.finish(ctx, 'end_turn', 5);
  }
}

export function createAnthropicMock(opts: MockOptions): MockServer {
  return new MockServer(new AnthropicHandler(), opts);
}
