import { DEFAULT_MODEL } from './config'
import { RELAY_BASE_URL, RELAYED_KEY } from './relay'
import type { ModelService } from './types'
import type { WebSearchOutcome } from './web-search'

/** What the cache needs from its host (the runtime's options fit it). */
export interface ModelCacheOptions {
  /** Where `ANTHROPIC_*` come from. */
  env: NodeJS.ProcessEnv
  /** Model override (`--model`). */
  model?: string
  /** Where a key entered in the app lives; `ANTHROPIC_API_KEY` is the fallback. */
  keyStore?: { get(): Promise<string | undefined> }
  /**
   * A remote host's model relay (host/remote/model-tunnel.ts): every request goes through this
   * fetch to the local Sous, which sends it with its own key. The host then reads no key at all.
   */
  modelRelay?: { fetch: typeof globalThis.fetch }
}

/** The user's preferences that shape the model service. */
export interface ModelPreferences {
  model?: string
  fallbackModel?: string
  baseUrl?: string
}

/**
 * The model service, rebuilt when the API key changes (a key entered in the app takes effect on
 * the next turn). A configuration error becomes a model service that answers with that error, so
 * the turn ends with a clear reason instead of a crash.
 */
export class ModelCache {
  private cached: { key: string | undefined; service: Promise<ModelService> } | undefined

  constructor(private readonly options: ModelCacheOptions) {}

  modelName(preferences: ModelPreferences = {}): string {
    return this.options.model ?? preferences.model ?? (this.options.env['ANTHROPIC_MODEL']?.trim() || DEFAULT_MODEL)
  }

  async get(preferences: ModelPreferences = {}): Promise<ModelService> {
    // Relayed: the key is the local side's business; none is read here.
    const secret = this.options.modelRelay ? RELAYED_KEY : ((await this.options.keyStore?.get()) ?? this.options.env['ANTHROPIC_API_KEY'])
    // The service depends on the key and on the preferences that shape its configuration.
    const key = JSON.stringify([secret, preferences.model, preferences.fallbackModel, preferences.baseUrl])
    if (this.cached?.key !== key || !this.cached) this.cached = { key, service: this.build(secret, preferences) }
    return this.cached.service
  }

  /** The small-model helper WebFetch uses, over the same configuration. */
  async askModel(preferences: ModelPreferences = {}): Promise<(system: string, user: string, signal: AbortSignal) => Promise<string>> {
    const { createAskModel } = await import('./ask')
    return async (system, user, signal) => createAskModel(await this.get(preferences))(system, user, signal)
  }

  /** The WebSearch tool's side request (see web-search.ts), to the session's model over the same configuration. */
  webSearch(preferences: ModelPreferences = {}): (query: { query: string; allowedDomains?: string[]; blockedDomains?: string[]; signal: AbortSignal }) => Promise<WebSearchOutcome> {
    return async (query) => {
      const { searchWeb } = await import('./web-search')
      return searchWeb(await this.get(preferences), { ...query, model: this.modelName(preferences) })
    }
  }

  /**
   * The request `prompt` hooks make (governance's HookModelAsk): one side question to the hook's
   * model (default the small, fast one), over the same configuration; the reply's text.
   */
  hookAsk(preferences: ModelPreferences = {}): (request: { system: string; user: string; model?: string; signal: AbortSignal }) => Promise<string> {
    return async ({ system, user, model, signal }) => {
      const { askOnce, SMALL_FAST_MODEL } = await import('./ask')
      return (await askOnce(await this.get(preferences), { model: model ?? SMALL_FAST_MODEL, system, user, maxTokens: 1024, signal })).text
    }
  }

  private async build(key: string | undefined, preferences: ModelPreferences): Promise<ModelService> {
    const { AnthropicModelService, resolveModelConfig } = await import('./index')
    const relay = this.options.modelRelay
    const env = relay ? withoutCredentials(this.options.env) : { ...this.options.env, ...(key ? { ANTHROPIC_API_KEY: key } : {}) }
    const model = this.options.model ?? preferences.model
    const config = resolveModelConfig(env, {
      ...(model && { model }),
      ...(preferences.fallbackModel && { fallbackModel: preferences.fallbackModel }),
      ...(preferences.baseUrl && { baseURL: preferences.baseUrl }),
      // The endpoint and the key are the local side's: only the path crosses the relay.
      ...(relay && { apiKey: RELAYED_KEY, baseURL: RELAY_BASE_URL }),
    })
    if (config.ok && relay) config.value.fetch = relay.fetch
    if (!config.ok) {
      const message = config.error.message
      return {
        async *stream() {
          yield { type: 'error', reason: 'invalid_request', message, midStream: false } as const
        },
      }
    }
    return new AnthropicModelService(config.value)
  }
}

/** The environment without the model credentials (a relayed host must not send its own). */
function withoutCredentials(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const { ANTHROPIC_API_KEY: _key, ANTHROPIC_AUTH_TOKEN: _token, ...rest } = env
  return rest
}
