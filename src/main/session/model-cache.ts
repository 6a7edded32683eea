import { DEFAULT_MODEL } from '../services/model/config'
import type { ModelService } from '../services/model/types'
import type { RuntimePreferences, SessionRuntimeOptions } from './runtime-options'

/**
 * The model service, rebuilt when the API key changes (a key entered in the app takes effect on
 * the next turn). A configuration error becomes a model service that answers with that error, so
 * the turn ends with a clear reason instead of a crash.
 */
export class ModelCache {
  private cached: { key: string | undefined; service: Promise<ModelService> } | undefined

  constructor(private readonly o: SessionRuntimeOptions) {}

  modelName(prefs: RuntimePreferences = {}): string {
    return this.o.model ?? prefs.model ?? (this.o.env['ANTHROPIC_MODEL']?.trim() || DEFAULT_MODEL)
  }

  async get(prefs: RuntimePreferences = {}): Promise<ModelService> {
    const secret = (await this.o.keyStore?.get()) ?? this.o.env['ANTHROPIC_API_KEY']
    // The service depends on the key and on the preferences that shape its configuration.
    const key = JSON.stringify([secret, prefs.model, prefs.fallbackModel, prefs.baseUrl])
    if (this.cached?.key !== key || !this.cached) this.cached = { key, service: this.build(secret, prefs) }
    return this.cached.service
  }

  /** The small-model helper WebFetch uses, over the same configuration. */
  async askModel(prefs: RuntimePreferences = {}): Promise<(system: string, user: string, signal: AbortSignal) => Promise<string>> {
    const { createAskModel } = await import('../services/model/ask')
    return async (system, user, signal) => createAskModel(await this.get(prefs))(system, user, signal)
  }

  private async build(key: string | undefined, prefs: RuntimePreferences): Promise<ModelService> {
    const { AnthropicModelService, resolveModelConfig } = await import('../services/model/index')
    const env = { ...this.o.env, ...(key ? { ANTHROPIC_API_KEY: key } : {}) }
    const model = this.o.model ?? prefs.model
    const config = resolveModelConfig(env, {
      ...(model && { model }),
      ...(prefs.fallbackModel && { fallbackModel: prefs.fallbackModel }),
      ...(prefs.baseUrl && { baseURL: prefs.baseUrl }),
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
