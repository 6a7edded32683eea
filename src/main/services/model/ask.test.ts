import { describe, expect, it } from 'vitest'
import { textReply, unauthorized } from '../../../../test/model-server'
import { createAskModel, SMALL_FAST_MODEL } from './ask'
import { AnthropicModelService } from './anthropic-model-service'
import { resolveModelConfig } from './config'
import { useModelServer } from '../../../../test/model-server/vitest'

// One scripted Messages API server for this file (test/model-server), cleared before each test.
const server = useModelServer()


function ask() {
  const config = resolveModelConfig({ ANTHROPIC_API_KEY: 'test', ANTHROPIC_BASE_URL: server.url })
  if (!config.ok) throw new Error(config.error.message)
  return createAskModel(new AnthropicModelService(config.value))
}

describe('createAskModel', () => {
  it('asks the small model once and returns its text', async () => {
    server.setScenario([textReply('The page is about cheese.')])
    const reply = await ask()('Answer briefly.', 'What is it about?', new AbortController().signal)
    expect(reply).toBe('The page is about cheese.')
    const body = server.requests.at(-1)?.body as { model: string; system: unknown; messages: unknown }
    expect(body.model).toBe(SMALL_FAST_MODEL)
    expect(body.messages).toEqual([{ role: 'user', content: 'What is it about?' }])
  })

  it('rejects with the reason when the model fails', async () => {
    server.setScenario([unauthorized()])
    await expect(ask()('s', 'u', new AbortController().signal)).rejects.toThrow(/authentication/)
  })
})
