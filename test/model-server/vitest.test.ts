import Anthropic from '@anthropic-ai/sdk'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { textReply } from './builders'
import { startModelServer, type ModelServer } from './server'
import { assertScenarioFollowed } from './vitest'

describe('the check useModelServer runs after every test', () => {
  let server: ModelServer
  beforeAll(async () => {
    server = await startModelServer()
  })
  afterAll(() => server.close())

  it('throws, naming the failures, when a request was not in the scenario, even if the caller swallowed the error', async () => {
    server.setScenario([textReply('only one')])
    const client = new Anthropic({ apiKey: 'test', baseURL: server.url, maxRetries: 0 })
    const params = { model: 'claude-sonnet-4-5', max_tokens: 16, messages: [{ role: 'user' as const, content: 'hi' }] }
    await client.messages.create(params)
    await client.messages.create(params).catch(() => undefined)
    expect(() => assertScenarioFollowed(server)).toThrow(/did not expect:\n {2}request 1: .*scenario exhausted/)
    // Emptied, so the next test starts clean.
    expect(() => assertScenarioFollowed(server)).not.toThrow()
  })
})
