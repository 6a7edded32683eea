/** The model service: the only place that talks to @anthropic-ai/sdk. */
export { AnthropicModelService, type ModelServiceDeps } from './anthropic-model-service'
export { resolveModelConfig, DEFAULT_MODEL, DEFAULT_RETRY_POLICY, type ModelConfig, type ModelConfigOverrides, type RetryPolicy } from './config'
export { costOf, priceOf, type ModelPrice } from './pricing'
export type * from './types'
export { askOnce, createAskModel, SMALL_FAST_MODEL, type AskAnswer, type AskRequest } from './ask'
