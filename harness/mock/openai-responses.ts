/**
 * Scripted mock of the OpenAI Responses API (`POST /v1/responses`, SSE) for Codex.
 *
 * Tool turns: name 'exec' is Codex's freeform (custom) code-mode tool: `input` is the JavaScript
 * it runs, e.g. `await tools.exec_command({cmd, sandbox_permissions: "require_escalated", justification})`
 * (see codexExec() in scenarios/codex.ts). Any other name is sent as a function_call with JSON arguments.
 * The title side request ("Generate a concise, single-line task title …") never consumes a turn.
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

interface RespBody {
  model?: string;
  stream?: boolean;
  input?: unknown[];
  instructions?: string;
}

function lastUserText(b: RespBody): string {
  const items = Array.isArray(b.input) ? b.input : [];
  for (let i = items.length - 1; i >= 0; i--) {
    const it = items[i] as Record<string, unknown>;
    if (it?.type === 'message' && it.role === 'user' && Array.isArray(it.content)) {
      const t = (it.content as Array<Record<string, unknown>>).map((c) => String(c.text ?? '')).join(' ');
      if (!t.startsWith('<environment_context>')) return t;
    }
  }
  return '';
}

function lastItemType(b: RespBody): string {
  const items = Array.isArray(b.input) ? b.input : [];
  const it = items[items.length - 1] as Record<string, unknown> | undefined;
  return String(it?.type ?? '');
}

export function openaiErrorBody(status: number, message?: string): unknown {
  const type =
    status === 429
      ? 'rate_limit_exceeded'
      : status === 401
        ? 'invalid_request_error'
        : status >= 500
          ? 'server_error'
          : 'invalid_request_error';
  return {
    error: {
      message:
        message ??
        (status === 429
          ? 'Rate limit reached (mock)'
          : status === 401
            ? 'Incorrect API key provided (mock)'
            : 'Internal server error (mock upstream failure)'),
      type,
      param: null,
      code: status === 401 ? 'invalid_api_key' : null,
    },
  };
}

class ResponsesHandler implements ProtocolHandler {
  name = 'openai-responses';
  private respCounter = 0;

  classify(method: string, path: string, body: unknown): ReturnType<ProtocolHandler['classify']> {
    if (method === 'POST' && /\/responses$/.test(path)) {
      const b = (body && typeof body === 'object' ? body : {}) as RespBody;
      const prompt = lastUserText(b);
      const extra = {
        model: b.model,
        stream: b.stream === true,
        n_input: b.input?.length ?? 0,
        last_input_type: lastItemType(b),
        prompt: prompt.slice(0, 200),
      };
      if (/Generate a concise, single-line task title/i.test(prompt)) return { kind: 'title', agent: false, extra };
      return { kind: 'agent', agent: true, extra };
    }
    return null;
  }

  notFound(path: string): unknown {
    return { error: { message: `mock: no route for ${path}`, type: 'invalid_request_error', param: null, code: 'not_found' } };
  }

  async serveSide(ctx: ServeContext): Promise<void> {
    await this.serveText(ctx, { type: 'text', text: ctx.script.title ?? 'Mock task', firstDelayMs: 0, delayMs: 0, chunks: 1000 });
  }

  serveError(ctx: ServeContext, turn: ErrorTurn): void {
    sendJson(ctx.res, turn.status, turn.body ?? openaiErrorBody(turn.status, turn.message), {
      'x-request-id': `req_mock_${ctx.entry.n}`,
      ...(turn.headers ?? {}),
    });
  }

  private seq = 0;
  private ev(ctx: ServeContext, type: string, data: Record<string, unknown>): boolean {
    return sse(ctx, { type, sequence_number: this.seq++, ...data }, type);
  }

  private start(ctx: ServeContext): { id: string; base: Record<string, unknown> } {
    this.seq = 0;
    const id = `resp_mock_${++this.respCounter}`;
    const b = (ctx.body ?? {}) as RespBody;
    const base = {
      id,
      object: 'response',
      created_at: Math.floor(Date.now() / 1000),
      model: b.model ?? 'mock-model',
      output: [] as unknown[],
    };
    startSse(ctx.res, { 'x-request-id': `req_mock_${ctx.entry.n}` });
    this.ev(ctx, 'response.created', { response: { ...base, status: 'in_progress' } });
    this.ev(ctx, 'response.in_progress', { response: { ...base, status: 'in_progress' } });
    return { id, base };
  }

  private complete(ctx: ServeContext, base: Record<string, unknown>, output: unknown[], outTokens: number): void {
    const inTok = promptTokens(ctx);
    logUsage(ctx, inTok, outTokens);
    this.ev(ctx, 'response.completed', {
      response: {
        ...base,
        status: 'completed',
        output,
        usage: {
          input_tokens: inTok,
          input_tokens_details: { cached_tokens: 0 },
          output_tokens: outTokens,
          output_tokens_details: { reasoning_tokens: 0 },
          total_tokens: inTok + outTokens,
        },
      },
    });
    ctx.res.end();
  }

  /** Stream a message output item; returns the completed item or null if the client went away. */
  private async streamMessage(
    ctx: ServeContext,
    respId: string,
    outputIndex: number,
    turn: Pick<TextTurn, 'text' | 'chunks' | 'firstDelayMs' | 'delayMs' | 'durationMs'>,
  ): Promise<unknown | null> {
    const itemId = `msg_mock_${respId}_${outputIndex}`;
    this.ev(ctx, 'response.output_item.added', {
      output_index: outputIndex,
      item: { id: itemId, type: 'message', status: 'in_progress', role: 'assistant', content: [] },
    });
    this.ev(ctx, 'response.content_part.added', {
      item_id: itemId,
      output_index: outputIndex,
      content_index: 0,
      part: { type: 'output_text', text: '', annotations: [] },
    });
    const parts = splitChunks(turn.text, turn.chunks);
    const delays = chunkDelays(turn, parts.length);
    for (let i = 0; i < parts.length; i++) {
      if (!(await abortableSleep(ctx, delays[i]!))) return null;
      this.ev(ctx, 'response.output_text.delta', {
        item_id: itemId,
        output_index: outputIndex,
        content_index: 0,
        delta: parts[i],
        logprobs: [],
      });
    }
    this.ev(ctx, 'response.output_text.done', {
      item_id: itemId,
      output_index: outputIndex,
      content_index: 0,
      text: turn.text,
      logprobs: [],
    });
    const part = { type: 'output_text', text: turn.text, annotations: [] };
    this.ev(ctx, 'response.content_part.done', { item_id: itemId, output_index: outputIndex, content_index: 0, part });
    const item = { id: itemId, type: 'message', status: 'completed', role: 'assistant', content: [part] };
    this.ev(ctx, 'response.output_item.done', { output_index: outputIndex, item });
    return item;
  }

  async serveText(ctx: ServeContext, turn: TextTurn): Promise<void> {
    const { id, base } = this.start(ctx);
    const item = await this.streamMessage(ctx, id, 0, turn);
    if (!item) return;
    this.complete(ctx, base, [item], approxTokens(turn.text));
  }

  async serveTool(ctx: ServeContext, turn: ToolTurn): Promise<void> {
    const { id, base } = this.start(ctx);
    const output: unknown[] = [];
    if (turn.text) {
      const item = await this.streamMessage(ctx, id, 0, { text: turn.text, firstDelayMs: turn.firstDelayMs, delayMs: turn.delayMs });
      if (!item) return;
      output.push(item);
    } else if (!(await abortableSleep(ctx, turn.firstDelayMs ?? 300))) return;
    const oi = output.length;
    const callId = `call_mock_${id}`;
    if (typeof turn.input === 'string') {
      const itemId = `ctc_${id}`;
      const input = turn.input;
      this.ev(ctx, 'response.output_item.added', {
        output_index: oi,
        item: { id: itemId, type: 'custom_tool_call', status: 'in_progress', call_id: callId, name: turn.name, input: '' },
      });
      const half = Math.ceil(input.length / 2);
      for (const d of [input.slice(0, half), input.slice(half)]) {
        if (!(await abortableSleep(ctx, turn.delayMs ?? 40))) return;
        this.ev(ctx, 'response.custom_tool_call_input.delta', { item_id: itemId, output_index: oi, delta: d });
      }
      this.ev(ctx, 'response.custom_tool_call_input.done', { item_id: itemId, output_index: oi, input });
      const item = { id: itemId, type: 'custom_tool_call', status: 'completed', call_id: callId, name: turn.name, input };
      this.ev(ctx, 'response.output_item.done', { output_index: oi, item });
      output.push(item);
    } else {
      const itemId = `fc_${id}`;
      const args = JSON.stringify(turn.input);
      this.ev(ctx, 'response.output_item.added', {
        output_index: oi,
        item: { id: itemId, type: 'function_call', status: 'in_progress', call_id: callId, name: turn.name, arguments: '' },
      });
      this.ev(ctx, 'response.function_call_arguments.delta', { item_id: itemId, output_index: oi, delta: args });
      this.ev(ctx, 'response.function_call_arguments.done', { item_id: itemId, output_index: oi, arguments: args });
      const item = { id: itemId, type: 'function_call', status: 'completed', call_id: callId, name: turn.name, arguments: args };
      this.ev(ctx, 'response.output_item.done', { output_index: oi, item });
      output.push(item);
    }
    ctx.log({ event: 'tool_call', name: turn.name, call_id: callId });
    this.complete(ctx, base, output, 40);
  }

  async serveHang(ctx: ServeContext, turn: HangTurn): Promise<void> {
    const { id, base } = this.start(ctx);
    const output: unknown[] = [];
    if (turn.text) {
      const item = await this.streamMessage(ctx, id, 0, { text: turn.text });
      if (!item) return;
      output.push(item);
    }
    const end = Date.now() + (turn.maxMs ?? 600_000);
    while (Date.now() < end) {
      if (!(await abortableSleep(ctx, Math.min(5000, end - Date.now())))) return;
      if (!ctx.aborted()) ctx.res.write(': keepalive\n\n');
    }
    if (!output.length) {
      const item = await this.streamMessage(ctx, id, 0, { text: 'Done.' });
      if (!item) return;
      output.push(item);
    }
    this.complete(ctx, base, output, 5);
  }
}

export function createResponsesMock(opts: MockOptions): MockServer {
  return new MockServer(new ResponsesHandler(), opts);
}
