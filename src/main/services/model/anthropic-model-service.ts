import type Anthropic from '@anthropic-ai/sdk'
import { BaseAnthropic } from '@anthropic-ai/sdk/client'
import { Messages } from '@anthropic-ai/sdk/resources/messages/messages'
import { startupMark } from '../../base/startup-marks'
import { abortableSleep } from '../../base/sleep'
import { StreamAccumulator } from './accumulate'
import { httpFetch } from './http-fetch'
import { ceilingFromError } from './capabilities'
import { wireModel, type ModelConfig } from './config'
import { backoffDelay, classifyError, type ClassifiedError } from './retry'
import type { ModelRequest, ModelService, ModelStreamEvent } from './types'

/** Test seams: randomness for jitter and the wait between attempts. */
export interface ModelServiceDeps {
  random?: () => number
  /** Resolves after `ms`, or early when `signal` aborts. */
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>
}

/**
 * The one line to the model, over @anthropic-ai/sdk (its only importer). Streams a request and
 * normalizes it into {@link ModelStreamEvent}s.
 *
 * Contract: `stream()` never throws for API failures; it ends with exactly one `message_end` or
 * `error`. Retries are ours (the SDK's are off): only before any block has been emitted, with
 * `retry-after` honoured on 429 and exponential backoff with jitter on 529, 5xx and connection
 * errors. After `overloadsBeforeFallback` consecutive overloads it switches to the fallback model.
 * Once content has streamed, a failure ends the stream with `midStream: true`: the caller discards
 * the partial reply and re-issues.
 */
export class AnthropicModelService implements ModelService {
  private readonly client: MessagesClient
  private readonly random: () => number
  private readonly sleep: (ms: number, signal: AbortSignal) => Promise<void>
  /** Output ceilings the API named for models our table over-estimated (see `ceilingFromError`). */
  private readonly ceilings = new Map<string, number>()

  constructor(
    private readonly config: ModelConfig,
    deps: ModelServiceDeps = {},
  ) {
    this.client = new MessagesClient({
      apiKey: config.apiKey ?? null,
      authToken: config.authToken ?? null,
      ...(config.baseURL ? { baseURL: config.baseURL } : {}),
      ...(config.timeoutMs ? { timeout: config.timeoutMs } : {}),
      ...(config.fetch && { fetch: config.fetch }),
      maxRetries: 0,
      logLevel: 'off',
      // node:http instead of the global fetch: undici's first load would double a cold start's memory.
      fetch: httpFetch as unknown as typeof fetch,
    })
    this.random = deps.random ?? Math.random
    this.sleep = deps.sleep ?? abortableSleep
  }

  async *stream(request: ModelRequest): AsyncGenerator<ModelStreamEvent> {
    if (!this.config.apiKey && !this.config.authToken) {
      yield { type: 'error', reason: 'authentication', message: 'No API key: set ANTHROPIC_API_KEY (or ANTHROPIC_AUTH_TOKEN).', midStream: false }
      return
    }
    const policy = this.config.retry
    let model = request.model
    let limitFixed = false
    let overloads = 0
    let backoffs = 0
    for (let attempt = 1; ; attempt++) {
      if (request.signal.aborted) {
        yield aborted(false)
        return
      }
      yield { type: 'request_start', model, attempt }
      const accumulator = new StreamAccumulator(model)
      let failure: ClassifiedError
      try {
        const wire = wireModel(model)
        const betas = [...wire.betas, ...requestBetas(request)]
        const headers = betas.length > 0 ? { 'anthropic-beta': betas.join(',') } : undefined
        startupMark('sdk')
        const events = await this.client.messages.create(toParams(this.withinCeiling(request, model), wire.id), { signal: request.signal, ...(headers && { headers }) })
        for await (const event of events) {
          // Events already buffered by the SDK must not leak out after an abort.
          if (request.signal.aborted) break
          for (const out of accumulator.push(event)) yield out
        }
        // The SDK ends the iteration quietly when the signal aborts, so ask before judging the end.
        if (request.signal.aborted) {
          yield aborted(accumulator.contentStarted)
          return
        }
        const end = accumulator.finish()
        if (end.type === 'message_end' || end.midStream) {
          yield end
          return
        }
        failure = { reason: end.reason, message: end.message, retryable: true }
      } catch (error) {
        failure = classifyError(error, request.signal)
      }
      if (failure.reason === 'aborted') {
        yield aborted(accumulator.contentStarted)
        return
      }
      if (accumulator.contentStarted) {
        yield toErrorEvent(failure, true)
        return
      }
      // A model whose ceiling is lower than we asked for: the API names it; ask again once with it.
      const ceiling = failure.reason === 'invalid_request' ? ceilingFromError(failure.message) : undefined
      if (ceiling !== undefined && !limitFixed && ceiling < this.withinCeiling(request, model).maxTokens) {
        limitFixed = true
        this.ceilings.set(model, ceiling)
        continue
      }
      const waitTooLong = failure.retryAfterMs !== undefined && failure.retryAfterMs > policy.maxRetryAfterMs
      if (!failure.retryable || attempt >= policy.maxAttempts || waitTooLong) {
        yield toErrorEvent(failure, false)
        return
      }

      overloads = failure.reason === 'overloaded' ? overloads + 1 : 0
      let delayMs: number
      const fallback = this.config.fallbackModel
      if (fallback && fallback !== model && overloads >= policy.overloadsBeforeFallback) {
        yield { type: 'fallback', from: model, to: fallback, reason: `${overloads} consecutive overloaded responses` }
        model = fallback
        overloads = 0
        backoffs = 0
        delayMs = 0 // A different model has its own capacity: try it at once.
      } else {
        delayMs = failure.retryAfterMs ?? backoffDelay(backoffs++, policy, this.random)
      }
      yield { type: 'retry', attempt: attempt + 1, reason: failure.reason, delayMs, message: failure.message }
      await this.sleep(delayMs, request.signal)
    }
  }

  private withinCeiling(request: ModelRequest, model: string): ModelRequest {
    return clampToCeiling(request, this.ceilings.get(model))
  }
}

/**
 * The SDK's client with the Messages API only (the SDK's documented tree-shakable form): the full
 * `Anthropic` class pulls every resource (files, batches, skills, beta, …), ~1 MB of code a cold
 * `sous -p` would compile for nothing (bench/startup.bench.ts).
 */
class MessagesClient extends BaseAnthropic {
  readonly messages: Messages = new Messages(this)
}

/** The request with its output limit (and a thinking budget below it) kept under a ceiling the API named for `model`. */
function clampToCeiling(request: ModelRequest, ceiling: number | undefined): ModelRequest {
  if (ceiling === undefined || request.maxTokens <= ceiling) return request
  const clamped: ModelRequest = { ...request, maxTokens: ceiling }
  if (request.thinking?.type === 'enabled' && request.thinking.budget_tokens >= ceiling) {
    const budget = ceiling - 1
    if (budget >= 1024) clamped.thinking = { ...request.thinking, budget_tokens: budget }
    else delete clamped.thinking
  }
  return clamped
}

/** Our request shape → SDK streaming params. Thinking, when on, forbids a custom temperature. */
export function toParams(request: ModelRequest, model: string): Anthropic.MessageCreateParamsStreaming {
  const params: Anthropic.MessageCreateParamsStreaming = {
    model,
    max_tokens: request.maxTokens,
    // Our block types mirror the wire format one to one (see types.ts); the SDK's param unions are wider.
    messages: request.messages as Anthropic.MessageParam[],
    stream: true,
  }
  if (request.system.length > 0) params.system = request.system as Anthropic.TextBlockParam[]
  const tools = [...request.tools, ...(request.serverTools ?? [])]
  if (tools.length > 0) params.tools = tools as Anthropic.ToolUnion[]
  if (request.toolChoice === 'none' && request.tools.length > 0) params.tool_choice = { type: 'none' }
  if (typeof request.toolChoice === 'object') params.tool_choice = request.toolChoice
  if (request.effort) params.output_config = { effort: request.effort }
  if (request.thinking) {
    params.thinking = request.thinking
  } else if (request.temperature !== undefined) {
    // SDK 1.14's param types no longer list temperature; the body is sent as given, so add it untyped.
    Object.assign(params, { temperature: request.temperature })
  }
  return params
}

/**
 * The beta a request's own shape needs: deferred tools and `tool_reference` results are the tool
 * search feature (`advanced-tool-use-2025-11-20`, the value Claude Code 2.1.328 sends for it).
 */
export function requestBetas(request: Pick<ModelRequest, 'tools'>): string[] {
  return request.tools.some((tool) => tool.defer_loading) ? [TOOL_SEARCH_BETA] : []
}

/** The beta header value for deferred tools and tool_reference blocks. */
export const TOOL_SEARCH_BETA = 'advanced-tool-use-2025-11-20'

function toErrorEvent(failure: ClassifiedError, midStream: boolean): ModelStreamEvent {
  const event: ModelStreamEvent = { type: 'error', reason: failure.reason, message: failure.message, midStream }
  if (failure.status !== undefined) event.status = failure.status
  return event
}

function aborted(midStream: boolean): ModelStreamEvent {
  return { type: 'error', reason: 'aborted', message: 'request aborted', midStream }
}
