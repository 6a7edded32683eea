import { DEFAULT_MODEL } from '../services/model/config'
import type { HookModelAsk } from '../governance/hooks/run-prompt'
import type { ModelService } from '../services/model/types'
import type { RuntimePreferences, SessionRuntimeOptions } from './runtime-options'

/**
 * The model service, rebuilt when the API key changes (a key entered in the app takes effect on
 * the next turn). A configuration error becomes a model service that answers with that error, so
 * the turn ends with a clear reason instead of a crash.
 */
export class ModelCache {
  private cached: { key: string | undefined; service: Promise<ModelService> } | undefined

  constructor(private readonly options: SessionRuntimeOptions) {}

  modelName(preferences: RuntimePreferences = {}): string {
    return this.options.model ?? preferences.model ?? (this.options.env['ANTHROPIC_MODEL']?.trim() || DEFAULT_MODEL)
  }

  async get(preferences: RuntimePreferences = {}): Promise<ModelService> {
    const secret = (await this.options.keyStore?.get()) ?? this.options.env['ANTHROPIC_API_KEY']
    // The service depends on the key and on the preferences that shape its configuration.
    const key = JSON.stringify([secret, preferences.model, preferences.fallbackModel, preferences.baseUrl])
    if (this.cached?.key !== key || !this.cached) this.cached = { key, service: this.build(secret, preferences) }
    return this.cached.service
  }

  /** The small-model helper WebFetch uses, over the same configuration. */
  async askModel(preferences: RuntimePreferences = {}): Promise<(system: string, user: string, signal: AbortSignal) => Promise<string>> {
    const { createAskModel } = await import('../services/model/ask')
    return async (system, user, signal) => createAskModel(await this.get(preferences))(system, user, signal)
  }

  /**
   * The request `prompt` hooks make: one side question to the hook's model (default the small,
   * fast one), over the same configuration; the reply's text.
   */
  hookAsk(preferences: RuntimePreferences = {}): HookModelAsk {
    return async ({ system, user, model, signal }) => {
      const { askOnce, SMALL_FAST_MODEL } = await import('../services/model/ask')
      return (await askOnce(await this.get(preferences), { model: model ?? SMALL_FAST_MODEL, system, user, maxTokens: 1024, signal })).text
    }
  }

  private async build(key: string | undefined, preferences: RuntimePreferences): Promise<ModelService> {
    const { AnthropicModelService, resolveModelConfig } = await import('../services/model/index')
    const env = { ...this.options.env, ...(key ? { ANTHROPIC_API_KEY: key } : {}) }
    const model = this.options.model ?? preferences.model
    const config = resolveModelConfig(env, {
      ...(model && { model }),
      ...(preferences.fallbackModel && { fallbackModel: preferences.fallbackModel }),
      ...(preferences.baseUrl && { baseURL: preferences.baseUrl }),
    })
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
