import { beforeEach, describe, expect, it } from 'vitest'
import {
  dropConnection,
  midStreamOverload,
  overloaded,
  promptTooLong,
  rateLimited,
  serverError,
  spendLimitReached,
  textReply,
  thinkingReply,
  toolUseReply,
  unauthorized,
} from '../../../../test/model-server'
import { AnthropicModelService } from './anthropic-model-service'
import { resolveModelConfig, type ModelConfigOverrides } from './config'
import type { ModelRequest, ModelStreamEvent } from './types'
import { useModelServer } from '../../../../test/model-server/vitest'

// The real service, the real SDK, a real HTTP server on 127.0.0.1. Only the wait between
// attempts is recorded instead of slept, so retry delays can be asserted exactly.
const server = useModelServer()

let slept: number[]

beforeEach(() => {
  slept = []
})

function service(overrides: ModelConfigOverrides = {}, realSleep = false): AnthropicModelService {
  const config = resolveModelConfig(
    {},
    { apiKey: 'test', baseURL: server.url, ...overrides, retry: { baseDelayMs: 100, maxDelayMs: 400, jitter: 0, ...overrides.retry } },
  )
  if (!config.ok) throw new Error(config.error.message)
  return new AnthropicModelService(config.value, realSleep ? {} : { sleep: async (ms) => void slept.push(ms) })
}

function request(extra: Partial<ModelRequest> = {}): ModelRequest {
  return {
    model: 'claude-sonnet-4-6',
    system: [{ type: 'text', text: 'You are terse.', cache_control: { type: 'ephemeral' } }],
    messages: [{ role: 'user', content: [{ type: 'text', text: 'hello' }] }],
    tools: [],
    maxTokens: 2048,
    signal: new AbortController().signal,
    ...extra,
  }
}

async function collect(events: AsyncIterable<ModelStreamEvent>): Promise<ModelStreamEvent[]> {
  const out: ModelStreamEvent[] = []
  for await (const event of events) out.push(event)
  return out
}

function last(events: ModelStreamEvent[]): ModelStreamEvent {
  const event = events.at(-1)
  if (!event) throw new Error('no events')
  return event
}

function ofType<T extends ModelStreamEvent['type']>(events: ModelStreamEvent[], type: T): Array<Extract<ModelStreamEvent, { type: T }>> {
  return events.filter((e): e is Extract<ModelStreamEvent, { type: T }> => e.type === type)
}

describe('AnthropicModelService', () => {
  it('streams text as deltas and ends with the message', async () => {
    server.setScenario([{ ...textReply('Hello from the scripted model.'), chunkSize: 4 }])
    const events = await collect(service().stream(request()))
    expect(events[0]).toEqual({ type: 'request_start', model: 'claude-sonnet-4-6', attempt: 1 })
    expect(events[1]).toEqual({ type: 'block_start', index: 0, kind: 'text' })
    const deltas = ofType(events, 'text_delta')
    expect(deltas.length).toBeGreaterThan(3)
    expect(deltas.map((d) => d.text).join('')).toBe('Hello from the scripted model.')
    expect(ofType(events, 'block_stop')).toEqual([{ type: 'block_stop', index: 0, block: { type: 'text', text: 'Hello from the scripted model.' } }])
    expect(last(events)).toMatchObject({ type: 'message_end', stopReason: 'end_turn', content: [{ type: 'text', text: 'Hello from the scripted model.' }] })
    const sent = server.requests[0]!.body
    expect(sent).toMatchObject({ model: 'claude-sonnet-4-6', max_tokens: 2048, stream: true, system: request().system })
    expect(sent['thinking']).toBeUndefined()
    expect(sent['tools']).toBeUndefined()
    expect(server.failures).toEqual([])
  })

  it('parses tool input from chunked partial JSON at block stop', async () => {
    const input = { file_path: '/tmp/a "quoted" file.ts', offset: 10, nested: { list: [1, 2, 3], unicode: 'héllo ✓' } }
    server.setScenario([{ ...toolUseReply('Read', input, { id: 'toolu_42', text: 'Reading.' }), jsonChunks: 7 }])
    const tools = [{ name: 'Read', description: 'Read a file', input_schema: { type: 'object' } }]
    const events = await collect(service().stream(request({ tools })))
    expect(events).toContainEqual({ type: 'block_start', index: 1, kind: 'tool_use', id: 'toolu_42', name: 'Read' })
    expect(ofType(events, 'block_stop')[1]).toEqual({ type: 'block_stop', index: 1, block: { type: 'tool_use', id: 'toolu_42', name: 'Read', input } })
    expect(last(events)).toMatchObject({ type: 'message_end', stopReason: 'tool_use' })
    expect(server.requests[0]!.body['tools']).toEqual(tools)
  })

  it('passes thinking through with its signature and redacted blocks untouched', async () => {
    const signature = 'EqQBCgIYAhIM+/=sig=='
    server.setScenario([
      {
        reply: {
          content: [
            { type: 'thinking', thinking: 'First, consider the question.', signature },
            { type: 'redacted_thinking', data: 'opaque-encrypted-data' },
            { type: 'text', text: 'Answer.' },
          ],
        },
        chunkSize: 6,
      },
    ])
    const events = await collect(service().stream(request({ thinking: { type: 'enabled', budget_tokens: 4000 }, temperature: 0.2 })))
    expect(ofType(events, 'thinking_delta').map((d) => d.text).join('')).toBe('First, consider the question.')
    const end = last(events)
    expect(end.type === 'message_end' && end.content).toEqual([
      { type: 'thinking', thinking: 'First, consider the question.', signature },
      { type: 'redacted_thinking', data: 'opaque-encrypted-data' },
      { type: 'text', text: 'Answer.' },
    ])
    expect(events).toContainEqual({ type: 'block_start', index: 1, kind: 'redacted_thinking' })
    expect(server.requests[0]!.body['thinking']).toEqual({ type: 'enabled', budget_tokens: 4000 })
    expect(server.requests[0]!.body['temperature']).toBeUndefined()
  })

  it('reports usage and cost, and flags a model missing from the price table', async () => {
    const usage = { input_tokens: 1000, output_tokens: 500, cache_read_input_tokens: 2000, cache_creation_input_tokens: 400 }
    server.setScenario([thinkingReply('hm', 'ok', { usage }), textReply('ok', { usage })])
    const end = last(await collect(service().stream(request())))
    expect(end).toMatchObject({ type: 'message_end', usage: { inputTokens: 1000, outputTokens: 500, cacheReadTokens: 2000, cacheWriteTokens: 400 } })
    const expected = (1000 * 3 + 500 * 15 + 400 * 3 * 1.25 + 2000 * 3 * 0.1) / 1e6
    expect(end.type === 'message_end' && end.costUsd).toBeCloseTo(expected, 10)
    expect(end.type === 'message_end' && end.costNote).toBeUndefined()
    const unknown = last(await collect(service().stream(request({ model: 'claude-future-9' }))))
    expect(unknown.type === 'message_end' && unknown.costNote).toMatch(/unknown model claude-future-9/)
  })

  it('honours retry-after on 429 and repeats the request', async () => {
    server.setScenario([rateLimited(3), { error: { status: 429, retryAfterMs: 250 } }, textReply('finally')])
    const events = await collect(service().stream(request()))
    expect(ofType(events, 'retry')).toEqual([
      { type: 'retry', attempt: 2, reason: 'rate_limited', delayMs: 3000, message: expect.any(String) },
      { type: 'retry', attempt: 3, reason: 'rate_limited', delayMs: 250, message: expect.any(String) },
    ])
    expect(slept).toEqual([3000, 250])
    expect(ofType(events, 'request_start').map((e) => e.attempt)).toEqual([1, 2, 3])
    expect(server.requests).toHaveLength(3)
    expect(server.requests[2]!.body).toEqual(server.requests[0]!.body)
    expect(last(events)).toMatchObject({ type: 'message_end' })
  })

  it('backs off exponentially on 529 and 5xx, then succeeds', async () => {
    server.setScenario([overloaded(), serverError(), overloaded(), textReply('ok')])
    const events = await collect(service().stream(request()))
    expect(ofType(events, 'retry').map((r) => [r.reason, r.delayMs])).toEqual([
      ['overloaded', 100],
      ['server_error', 200],
      ['overloaded', 400],
    ])
    expect(last(events)).toMatchObject({ type: 'message_end' })
  })

  it('applies jitter within its bound', async () => {
    server.setScenario([overloaded(), textReply('ok')])
    const config = resolveModelConfig({}, { apiKey: 'test', baseURL: server.url, retry: { baseDelayMs: 1000, jitter: 0.25 } })
    if (!config.ok) throw new Error(config.error.message)
    const events = await collect(new AnthropicModelService(config.value, { random: () => 1, sleep: async () => {} }).stream(request()))
    expect(ofType(events, 'retry')[0]?.delayMs).toBe(750)
  })

  it('switches to the fallback model after repeated overloads', async () => {
    server.setScenario([overloaded(), overloaded(), overloaded(), textReply('from the fallback')])
    const events = await collect(service({ fallbackModel: 'claude-haiku-4-5' }).stream(request()))
    expect(ofType(events, 'fallback')).toEqual([{ type: 'fallback', from: 'claude-sonnet-4-6', to: 'claude-haiku-4-5', reason: expect.any(String) }])
    expect(server.requests.map((r) => r.model)).toEqual(['claude-sonnet-4-6', 'claude-sonnet-4-6', 'claude-sonnet-4-6', 'claude-haiku-4-5'])
    expect(last(events)).toMatchObject({ type: 'message_end', model: 'claude-haiku-4-5' })
  })

  it('gives up after maxAttempts with the last error', async () => {
    server.setScenario([serverError(), serverError('still broken')])
    const events = await collect(service({ retry: { maxAttempts: 2 } }).stream(request()))
    expect(ofType(events, 'retry')).toHaveLength(1)
    expect(last(events)).toEqual({ type: 'error', reason: 'server_error', message: 'still broken', midStream: false, status: 500 })
  })

  it.each([
    ['prompt too long', promptTooLong(), 'prompt_too_long', 400],
    ['401', unauthorized(), 'authentication', 401],
    ['spend limit', spendLimitReached(), 'rate_limited', 429],
    ['404', { error: { status: 404 } }, 'not_found', 404],
  ])('does not retry %s', async (_name, step, reason, status) => {
    server.setScenario([step])
    const events = await collect(service().stream(request()))
    expect(ofType(events, 'retry')).toHaveLength(0)
    expect(last(events)).toMatchObject({ type: 'error', reason, status, midStream: false })
    expect(server.requests).toHaveLength(1)
  })

  it('returns the prompt-too-long message as the API worded it', async () => {
    server.setScenario([promptTooLong()])
    const end = last(await collect(service().stream(request())))
    expect(end).toMatchObject({ type: 'error', message: 'prompt is too long: 219898 tokens > 200000 maximum' })
  })

  it('refuses to wait out a retry-after beyond the limit', async () => {
    server.setScenario([rateLimited(3600)])
    const end = last(await collect(service({ retry: { maxRetryAfterMs: 60_000 } }).stream(request())))
    expect(end).toMatchObject({ type: 'error', reason: 'rate_limited', midStream: false })
    expect(slept).toEqual([])
  })

  it('ends with a mid-stream error after content has streamed, without retrying', async () => {
    server.setScenario([midStreamOverload(2)])
    const events = await collect(service().stream(request()))
    expect(ofType(events, 'text_delta')).toHaveLength(2)
    expect(last(events)).toMatchObject({ type: 'error', reason: 'overloaded', midStream: true, message: 'Overloaded' })
    expect(server.requests).toHaveLength(1)
  })

  it('retries a connection dropped before headers, and reports one dropped mid-stream', async () => {
    server.setScenario([dropConnection('before-headers'), textReply('reconnected')])
    const first = await collect(service().stream(request()))
    expect(ofType(first, 'retry')[0]).toMatchObject({ reason: 'connection', delayMs: 100 })
    expect(last(first)).toMatchObject({ type: 'message_end' })

    server.setScenario([dropConnection('mid-stream', 2)])
    const second = await collect(service().stream(request()))
    expect(ofType(second, 'text_delta')).toHaveLength(2)
    expect(last(second)).toMatchObject({ type: 'error', reason: 'connection', midStream: true })
  })

  it('stops promptly on abort during streaming', async () => {
    server.setScenario([{ ...textReply('word '.repeat(400)), chunkSize: 5, delayMs: 20 }])
    const controller = new AbortController()
    const events: ModelStreamEvent[] = []
    for await (const event of service().stream(request({ signal: controller.signal }))) {
      events.push(event)
      if (event.type === 'text_delta') controller.abort()
    }
    expect(ofType(events, 'text_delta')).toHaveLength(1)
    expect(last(events)).toEqual({ type: 'error', reason: 'aborted', message: 'request aborted', midStream: true })
  })

  it('stops promptly on abort while waiting to retry', async () => {
    server.setScenario([rateLimited(120)])
    const controller = new AbortController()
    const events: ModelStreamEvent[] = []
    for await (const event of service({}, true).stream(request({ signal: controller.signal }))) {
      events.push(event)
      if (event.type === 'retry') controller.abort()
    }
    expect(last(events)).toEqual({ type: 'error', reason: 'aborted', message: 'request aborted', midStream: false })
  })

  it('fails as a value without an API key, and sends nothing', async () => {
    const config = resolveModelConfig({}, { baseURL: server.url })
    if (!config.ok) throw new Error(config.error.message)
    const events = await collect(new AnthropicModelService(config.value).stream(request()))
    expect(events).toEqual([{ type: 'error', reason: 'authentication', message: expect.stringContaining('ANTHROPIC_API_KEY'), midStream: false }])
    expect(server.requests).toHaveLength(0)
  })
})
