import { z } from 'zod';
import { DEFAULT_PORT } from '../../../../shared/workflow/engine-policy.schema';
import { LlmBudgetConfig } from '../../../budgets/budget-config';
import { round } from '../../../budgets/run-budgets';
import { BadInputError } from '../../../runtime/errors';
import type { Message } from '../../../runtime/message';
import { definePlugin, type PluginContext } from '../../contract';
import { renderTemplate, type TemplateScope } from '../../expressions/template';
import { withDeadline } from '../shared/deadline';
import { waitForRateLimit } from '../../../budgets/rate-limit-wait';
import { DEFAULT_BASE_URLS, LLM_PROVIDERS, LlmProviderError, providerFailure, readAnswer, wireRequest, type ChatAnswer } from './llm-providers';

const MAX_TIMEOUT_MS = 600_000;
/** ENG-05: the idle timeout is the request timeout plus this (a wait for a rate-limit slot heartbeats). */
const IDLE_MARGIN_MS = 5_000;
const SECRET_REF = /^decrypted:[A-Za-z][A-Za-z0-9_]{0,63}$/;

/** Price of a model in cost units (e.g. USD) per million tokens. */
const Price = z.strictObject({ input: z.number().min(0), output: z.number().min(0) });

const LlmCallConfig = z.strictObject({
  /** `openai`: any OpenAI-compatible chat completions API; `anthropic`: the Anthropic messages API. */
  provider: z.enum(LLM_PROVIDERS).default('openai'),
  /** The API's base URL (default: the provider's public API); goes through the network guard (SEC-03). */
  baseUrl: z.string().min(1).max(2048).optional(),
  /** The model (a template). */
  model: z.string().min(1).max(256),
  /** System prompt (a template). */
  system: z.string().max(1_000_000).optional(),
  /** The user prompt (a template over the message). */
  prompt: z.string().min(1).max(1_000_000),
  /** The API key as a secret reference, `decrypted:<name>`; plain keys are refused (they would be stored with the definition). */
  apiKey: z.string().regex(SECRET_REF, 'a secret reference, decrypted:<name>').optional(),
  /** Most tokens the answer may have (`max_tokens`). */
  maxOutputTokens: z.number().int().min(1).max(1_000_000).default(1024),
  temperature: z.number().min(0).max(2).optional(),
  /** Ask for JSON and parse the answer into `data`; an answer that is not JSON fails as bad input. */
  json: z.boolean().default(false),
  timeoutMs: z.number().int().min(1).max(MAX_TIMEOUT_MS).default(60_000),
  /** The name of `yukta.llm.rate-limit.<name>` this node counts against (default: the provider). */
  rateLimitKey: z
    .string()
    .min(1)
    .max(64)
    .regex(/^[A-Za-z0-9._-]+$/, 'a provider name')
    .optional(),
  /** Prices per model (per million tokens), for cost accounting and `budget.maxCost`. */
  prices: z.record(z.string().min(1).max(256), Price).default({}),
  /** EXT-03: limits on the run's (or agent's) LLM use across nodes. */
  budget: LlmBudgetConfig.optional(),
});
type LlmCallConfig = z.infer<typeof LlmCallConfig>;

function scopeOf(message: Message, ctx: PluginContext): TemplateScope {
  return {
    payload: message.payload,
    metadata: message.metadata,
    context: { executionId: ctx.executionId, nodeId: ctx.nodeId, workflowId: ctx.workflowId, session: ctx.session },
    variables: ctx.services.variables,
  };
}

/** Parses a JSON answer; one surrounding Markdown code fence is tolerated (models add them). */
export function parseJsonAnswer(text: string): unknown {
  const fenced = /^\s*```(?:json)?\s*\n([\s\S]*?)\n?```\s*$/i.exec(text);
  try {
    return JSON.parse(fenced ? fenced[1]! : text) as unknown;
  } catch {
    throw new BadInputError(`the model's answer is not valid JSON (json: true): ${text.slice(0, 200)}`, 'LLM_OUTPUT_NOT_JSON');
  }
}

function parseBody(body: Buffer): unknown {
  const text = body.toString('utf8');
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

function costOf(answer: ChatAnswer, price: z.infer<typeof Price> | undefined): number {
  if (!price) return 0;
  return (answer.inputTokens * price.input + answer.outputTokens * price.output) / 1_000_000;
}

async function call(config: LlmCallConfig, message: Message, ctx: PluginContext): Promise<{ answer: ChatAnswer; model: string }> {
  const scope = scopeOf(message, ctx);
  const model = String(renderTemplate(config.model, scope));
  const request = {
    model,
    system: config.system === undefined ? undefined : String(renderTemplate(config.system, scope)),
    prompt: String(renderTemplate(config.prompt, scope)),
    maxOutputTokens: config.maxOutputTokens,
    temperature: config.temperature,
    json: config.json,
  };
  const budget = config.budget;
  if (budget?.maxCost !== undefined && !config.prices[model])
    throw new BadInputError(`budget.maxCost needs a price for model "${model}" in prices`, 'PRICE_MISSING');
  const apiKey = config.apiKey === undefined ? undefined : ctx.services.secrets.resolve(config.apiKey);
  ctx.services.budgets.admit(ctx.executionId, 'llm', budget);
  await waitForRateLimit(ctx, config.rateLimitKey ?? config.provider);
  const wire = wireRequest(config.provider, request, apiKey);
  const url = `${(config.baseUrl ?? DEFAULT_BASE_URLS[config.provider]).replace(/\/+$/, '')}${wire.path}`;
  const headers = { ...wire.headers, 'content-type': 'application/json', accept: 'application/json', 'user-agent': 'YuktaStudio' };
  const response = await withDeadline(ctx, config.timeoutMs, `${config.provider} ${model}`, (signal) =>
    ctx.services.http.request({ method: 'POST', url, headers, body: JSON.stringify(wire.body), signal }),
  );
  const body = parseBody(response.body);
  if (response.status >= 400) throw providerFailure(config.provider, response.status, body);
  if (typeof body !== 'object' || body === null) throw new LlmProviderError(502, `${config.provider} answered ${response.status} without a JSON body`);
  return { answer: readAnswer(config.provider, body, model), model };
}

/**
 * LLM_CALL (EXT-01, EXT-03): one chat call per message to an OpenAI-compatible chat completions API or the
 * Anthropic messages API. Prompts are templates; the key is a `decrypted:<name>` secret used only in the
 * request; the URL goes through the guarded client (SEC-03). Tokens and cost are counted in the run's
 * budget ledger and put on the output's metadata. 408/425/429/5xx fail retryably, other 4xx as bad input.
 */
export const llmCallPlugin = definePlugin({
  type: 'LLM_CALL',
  kind: 'processor',
  title: 'LLM call',
  description: 'Asks a language model (OpenAI-compatible or Anthropic API); counts tokens and cost against the run budget.',
  configSchema: LlmCallConfig,
  defaultConfig: { provider: 'openai', model: 'gpt-4o-mini', prompt: '${payload}', apiKey: 'decrypted:openai' },
  outputs: [DEFAULT_PORT],
  defaultTimeoutMs: (config) => config.timeoutMs + IDLE_MARGIN_MS,
  async process(message, config, ctx) {
    const { answer, model } = await call(config, message, ctx);
    const cost = costOf(answer, config.prices[model] ?? config.prices[answer.model]);
    const tokens = answer.inputTokens + answer.outputTokens;
    const total = ctx.services.budgets.record(ctx.executionId, config.budget?.agent, { tokens, cost });
    const redact = ctx.services.secrets.redactor;
    const data = config.json ? parseJsonAnswer(answer.text) : undefined;
    const payload = redact.redact({
      text: answer.text,
      ...(config.json ? { data } : {}),
      model: answer.model,
      stopReason: answer.stopReason,
      usage: { inputTokens: answer.inputTokens, outputTokens: answer.outputTokens, totalTokens: tokens },
      cost: round(cost),
    });
    const metadata = {
      ...message.metadata,
      'llm.provider': config.provider,
      'llm.model': answer.model,
      'llm.inputTokens': String(answer.inputTokens),
      'llm.outputTokens': String(answer.outputTokens),
      'llm.totalTokens': String(tokens),
      'llm.cost': String(round(cost)),
      'budget.llmCalls': String(total.llmCalls),
      'budget.tokens': String(total.tokens),
      'budget.cost': String(round(total.cost)),
    };
    return [{ payload, metadata }];
  },
});
