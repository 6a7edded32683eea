import type { ModelService } from './types'

/** The small, fast model used for side questions (WebFetch's prompt over a page). */
export const SMALL_FAST_MODEL = 'claude-haiku-4-5'

/**
 * Builds a one-shot "answer this" function over the model service, for tools that need a model
 * without a conversation. Contract: resolves with the reply text; rejects with a readable message
 * when the model fails (the tool turns that into an error result).
 */
export function createAskModel(
  service: ModelService,
  model: string = SMALL_FAST_MODEL,
  maxTokens = 4096,
): (system: string, user: string, signal: AbortSignal) => Promise<string> {
  return async (system, user, signal) => {
    let text = ''
    for await (const event of service.stream({
      model,
      system: [{ type: 'text', text: system }],
      messages: [{ role: 'user', content: user }],
      tools: [],
      maxTokens,
      signal,
    })) {
      if (event.type === 'error') throw new Error(`The model could not answer (${event.reason}): ${event.message}`)
      if (event.type === 'message_end') {
        for (const block of event.content) if (block.type === 'text') text += block.text
      }
    }
    return text
  }
}
