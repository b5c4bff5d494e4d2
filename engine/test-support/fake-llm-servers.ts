import type { ServerResponse } from 'node:http';
import { json, startServer, type LocalServer, type SeenRequest } from './local-servers';

/** What a fake model was asked (provider-neutral). */
export interface FakeChat {
  model: string;
  system: string | undefined;
  prompt: string;
}

/** A fake LLM API on 127.0.0.1 speaking a real wire format; the test scripts answers and failures. */
export interface FakeLlmServer extends LocalServer {
  /** `${url}/v1`: the base URL a node points at. */
  readonly baseUrl: string;
  /** What the model answers (default: `echo: <prompt>`). */
  answer: (chat: FakeChat) => string;
  /** Tokens reported for every answer. */
  usage: { input: number; output: number };
  /** The next requests get these failures, in order, before answers resume (e.g. `[429, 503]`). */
  failNext(...statuses: number[]): void;
  /** The chats answered or refused, in order. */
  readonly chats: FakeChat[];
}

interface Core {
  answer: (chat: FakeChat) => string;
  usage: { input: number; output: number };
  failures: number[];
  chats: FakeChat[];
}

function core(): Core {
  return { answer: (chat) => `echo: ${chat.prompt}`, usage: { input: 10, output: 5 }, failures: [], chats: [] };
}

/** The server object is the state: the handler reads `answer` and `usage` from it at each request. */
function wrap(server: LocalServer, state: Core): FakeLlmServer {
  const fake = Object.assign(server, {
    baseUrl: `${server.url}/v1`,
    answer: state.answer,
    usage: state.usage,
    failNext: (...statuses: number[]) => void state.failures.push(...statuses),
    chats: state.chats,
  });
  state.answer = (chat) => fake.answer(chat);
  Object.defineProperty(state, 'usage', { get: () => fake.usage });
  return fake;
}

function parse(req: SeenRequest): Record<string, unknown> | null {
  try {
    const body = JSON.parse(req.body) as unknown;
    return body && typeof body === 'object' ? (body as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** The OpenAI error shape: `{error: {message, type, code}}`. */
function openAiError(res: ServerResponse, status: number, message: string): void {
  json(res, status, { error: { message, type: status === 429 ? 'rate_limit_exceeded' : 'invalid_request_error', code: null } });
}

/** An OpenAI-compatible `POST /v1/chat/completions` (Bearer key `key`). */
export async function startFakeOpenAi(key = 'sk-test'): Promise<FakeLlmServer> {
  const state = core();
  const server = await startServer((req, res) => {
    if (req.method !== 'POST' || req.url !== '/v1/chat/completions') return openAiError(res, 404, `unknown route ${req.method} ${req.url}`);
    if (req.headers.authorization !== `Bearer ${key}`) return openAiError(res, 401, 'Incorrect API key provided');
    const body = parse(req);
    const messages = Array.isArray(body?.messages) ? (body.messages as Array<{ role?: unknown; content?: unknown }>) : null;
    if (!body || typeof body.model !== 'string' || !messages?.length) return openAiError(res, 400, 'model and messages are required');
    const chat = {
      model: body.model,
      system: messages.find((m) => m.role === 'system')?.content as string | undefined,
      prompt: String(messages.findLast((m) => m.role === 'user')?.content ?? ''),
    };
    state.chats.push(chat);
    const failure = state.failures.shift();
    if (failure !== undefined) return openAiError(res, failure, `fake failure ${failure}`);
    const content = state.answer(chat);
    const { input, output } = state.usage;
    json(res, 200, {
      id: `chatcmpl-${state.chats.length}`,
      object: 'chat.completion',
      created: 1_700_000_000,
      model: chat.model,
      choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
      usage: { prompt_tokens: input, completion_tokens: output, total_tokens: input + output },
    });
  });
  return wrap(server, state);
}

/** The Anthropic error shape: `{type: 'error', error: {type, message}}`. */
function anthropicError(res: ServerResponse, status: number, message: string): void {
  const type =
    status === 429
      ? 'rate_limit_error'
      : status === 529
        ? 'overloaded_error'
        : status >= 500
          ? 'api_error'
          : status === 401
            ? 'authentication_error'
            : 'invalid_request_error';
  json(res, status, { type: 'error', error: { type, message } });
}

/** An Anthropic `POST /v1/messages` (`x-api-key: key`, `anthropic-version` required, `max_tokens` required). */
export async function startFakeAnthropic(key = 'sk-ant-test'): Promise<FakeLlmServer> {
  const state = core();
  const server = await startServer((req, res) => {
    if (req.method !== 'POST' || req.url !== '/v1/messages') return anthropicError(res, 404, `unknown route ${req.method} ${req.url}`);
    if (req.headers['x-api-key'] !== key) return anthropicError(res, 401, 'invalid x-api-key');
    if (!req.headers['anthropic-version']) return anthropicError(res, 400, 'anthropic-version header is required');
    const body = parse(req);
    const messages = Array.isArray(body?.messages) ? (body.messages as Array<{ role?: unknown; content?: unknown }>) : null;
    if (!body || typeof body.model !== 'string' || typeof body.max_tokens !== 'number' || !messages?.length)
      return anthropicError(res, 400, 'model, max_tokens and messages are required');
    if (messages.some((m) => m.role === 'system')) return anthropicError(res, 400, 'messages: system is a top-level field');
    const chat = {
      model: body.model,
      system: typeof body.system === 'string' ? body.system : undefined,
      prompt: String(messages.findLast((m) => m.role === 'user')?.content ?? ''),
    };
    state.chats.push(chat);
    const failure = state.failures.shift();
    if (failure !== undefined) return anthropicError(res, failure, `fake failure ${failure}`);
    const { input, output } = state.usage;
    json(res, 200, {
      id: `msg_${state.chats.length}`,
      type: 'message',
      role: 'assistant',
      model: chat.model,
      content: [{ type: 'text', text: state.answer(chat) }],
      stop_reason: 'end_turn',
      stop_sequence: null,
      usage: { input_tokens: input, output_tokens: output },
    });
  });
  return wrap(server, state);
}
