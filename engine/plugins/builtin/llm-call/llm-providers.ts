import { BadInputError } from '../../../runtime/errors';

/** The APIs LLM_CALL speaks. */
export const LLM_PROVIDERS = ['openai', 'anthropic'] as const;
export type LlmProvider = (typeof LLM_PROVIDERS)[number];

/** Where each API lives when the node sets no `baseUrl`. */
export const DEFAULT_BASE_URLS: Record<LlmProvider, string> = {
  openai: 'https://api.openai.com/v1',
  anthropic: 'https://api.anthropic.com/v1',
};

/** The `anthropic-version` header the messages API needs. */
export const ANTHROPIC_VERSION = '2023-06-01';

/** One chat request, provider-neutral. */
export interface ChatRequest {
  model: string;
  system?: string | undefined;
  prompt: string;
  maxOutputTokens: number;
  temperature?: number | undefined;
  json: boolean;
}

/** One answer, provider-neutral. */
export interface ChatAnswer {
  text: string;
  model: string;
  stopReason: string | null;
  inputTokens: number;
  outputTokens: number;
}

/** What goes on the wire: path under the base URL, headers (the key among them) and the JSON body. */
export interface WireRequest {
  path: string;
  headers: Record<string, string>;
  body: unknown;
}

/** A provider answer that is not a success: 408, 425, 429 and 5xx are retryable, other 4xx are bad input. */
export class LlmProviderError extends Error {
  override readonly name = 'LlmProviderError';
  readonly code: string;
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.code = `LLM_${status}`;
  }
}

/** OpenAI-compatible chat completions (`POST {base}/chat/completions`) or Anthropic messages (`POST {base}/messages`). */
export function wireRequest(provider: LlmProvider, request: ChatRequest, apiKey: string | undefined): WireRequest {
  if (provider === 'anthropic') {
    const headers: Record<string, string> = { 'anthropic-version': ANTHROPIC_VERSION };
    if (apiKey !== undefined) headers['x-api-key'] = apiKey;
    // The messages API has no JSON mode: the instruction goes in the system prompt and the text is parsed.
    const system = request.json ? [request.system, 'Answer with one JSON value only, no other text.'].filter(Boolean).join('\n\n') : request.system;
    const body = {
      model: request.model,
      max_tokens: request.maxOutputTokens,
      ...(system ? { system } : {}),
      messages: [{ role: 'user', content: request.prompt }],
      ...(request.temperature !== undefined ? { temperature: request.temperature } : {}),
    };
    return { path: '/messages', headers, body };
  }
  const headers: Record<string, string> = {};
  if (apiKey !== undefined) headers.authorization = `Bearer ${apiKey}`;
  const messages = [...(request.system ? [{ role: 'system', content: request.system }] : []), { role: 'user', content: request.prompt }];
  const body = {
    model: request.model,
    messages,
    max_tokens: request.maxOutputTokens,
    ...(request.temperature !== undefined ? { temperature: request.temperature } : {}),
    ...(request.json ? { response_format: { type: 'json_object' } } : {}),
  };
  return { path: '/chat/completions', headers, body };
}

function record(value: unknown): Record<string, unknown> {
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

function count(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : 0;
}

/** Reads a successful answer; a body of the wrong shape is a provider fault (retryable, 502). */
export function readAnswer(provider: LlmProvider, body: unknown, model: string): ChatAnswer {
  const root = record(body);
  if (provider === 'anthropic') {
    const content = Array.isArray(root.content) ? root.content : null;
    if (!content) throw new LlmProviderError(502, 'the messages API answer has no content array');
    const text = content
      .map((block) => record(block))
      .filter((b) => b.type === 'text' && typeof b.text === 'string')
      .map((b) => b.text as string)
      .join('');
    const usage = record(root.usage);
    return {
      text,
      model: typeof root.model === 'string' ? root.model : model,
      stopReason: typeof root.stop_reason === 'string' ? root.stop_reason : null,
      inputTokens: count(usage.input_tokens),
      outputTokens: count(usage.output_tokens),
    };
  }
  const choice = Array.isArray(root.choices) ? record(root.choices[0]) : null;
  if (!choice) throw new LlmProviderError(502, 'the chat completions answer has no choices');
  const content = record(choice.message).content;
  const usage = record(root.usage);
  return {
    text: typeof content === 'string' ? content : '',
    model: typeof root.model === 'string' ? root.model : model,
    stopReason: typeof choice.finish_reason === 'string' ? choice.finish_reason : null,
    inputTokens: count(usage.prompt_tokens),
    outputTokens: count(usage.completion_tokens),
  };
}

/** The provider's own words about a failure (`{error: {message}}` in both APIs), cut short. */
export function errorText(body: unknown): string {
  const error = record(record(body).error);
  const text = typeof error.message === 'string' ? error.message : typeof body === 'string' ? body : '';
  return text.slice(0, 300);
}

/** A failed answer as an error: retryable for 408, 425, 429 and 5xx; bad input (never retried) for other 4xx. */
export function providerFailure(provider: LlmProvider, status: number, body: unknown): Error {
  const said = errorText(body);
  const message = `${provider} answered ${status}${said ? `: ${said}` : ''}`;
  if (status >= 400 && status < 500 && ![408, 425, 429].includes(status)) return new BadInputError(message, `LLM_${status}`);
  return new LlmProviderError(status, message);
}
