import Anthropic from '@anthropic-ai/sdk'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import {
  dropConnection,
  midStreamOverload,
  overloaded,
  promptTooLong,
  rateLimited,
  spendLimitReached,
  textReply,
  thinkingReply,
  toolUseReply,
  unauthorized,
} from './builders'
import { startModelServer, type ModelServer } from './server'

// The real SDK against the scripted server: proves the wire format is what the SDK expects.
let server: ModelServer
let client: Anthropic

beforeEach(async () => {
  server = await startModelServer()
  client = new Anthropic({ baseURL: server.url, apiKey: 'test', maxRetries: 0 })
})
afterEach(async () => {
  await server.close()
})

const params = { model: 'claude-sonnet-4-6', max_tokens: 1024, messages: [{ role: 'user' as const, content: 'hello' }] }

describe('scripted model server with the real SDK', () => {
  it('answers a non-streaming request and records it', async () => {
    server.setScenario([textReply('hi there')])
    const message = await client.messages.create({ ...params, system: [{ type: 'text', text: 'be brief' }] })
    expect(message.content).toEqual([{ type: 'text', text: 'hi there', citations: null }])
    expect(message.stop_reason).toBe('end_turn')
    expect(message.model).toBe('claude-sonnet-4-6')
    expect(message.usage.output_tokens).toBeGreaterThan(0)
    expect(server.requests).toHaveLength(1)
    const recorded = server.requests[0]!
    expect(recorded.body['max_tokens']).toBe(1024)
    expect(recorded.body['system']).toEqual([{ type: 'text', text: 'be brief' }])
    expect(recorded.headers['authorization']).toBe('Bearer test')
    expect(server.failures).toEqual([])
  })

  it('streams text, tool_use with chunked JSON, and thinking with its signature', async () => {
    const input = { command: 'ls -la', description: 'List files in the current directory' }
    server.setScenario([
      { ...thinkingReply('Let me think about this carefully.', 'Sure.', { signature: 'sig-123' }), chunkSize: 5, pingEvery: 2 },
      { ...toolUseReply('Bash', input, { id: 'toolu_1', text: 'Running it.' }), jsonChunks: 4 },
    ])
    const events: Anthropic.MessageStreamEvent[] = []
    const stream = client.messages.stream(params)
    for await (const event of stream) events.push(event)
    const first = await stream.finalMessage()
    expect(first.content[0]).toEqual({ type: 'thinking', thinking: 'Let me think about this carefully.', signature: 'sig-123' })
    expect(first.content[1]).toMatchObject({ type: 'text', text: 'Sure.' })
    expect(events[0]?.type).toBe('message_start')
    expect(events.at(-1)?.type).toBe('message_stop')
    expect(events.filter((e) => e.type === 'content_block_delta' && e.delta.type === 'thinking_delta').length).toBeGreaterThan(3)
    expect(events.some((e) => e.type === 'content_block_delta' && e.delta.type === 'signature_delta')).toBe(true)

    const toolEvents: Anthropic.MessageStreamEvent[] = []
    const second = client.messages.stream(params)
    for await (const event of second) toolEvents.push(event)
    const message = await second.finalMessage()
    expect(message.stop_reason).toBe('tool_use')
    expect(message.content[1]).toEqual({ type: 'tool_use', id: 'toolu_1', name: 'Bash', input })
    const jsonDeltas = toolEvents.filter((e) => e.type === 'content_block_delta' && e.delta.type === 'input_json_delta')
    expect(jsonDeltas).toHaveLength(4)
    const delta = toolEvents.find((e) => e.type === 'message_delta')
    expect(delta?.type === 'message_delta' && delta.usage.output_tokens).toBeGreaterThan(0)
  })

  it('sends SSE headers and a request-id', async () => {
    server.setScenario([textReply('x')])
    const response = await fetch(`${server.url}/v1/messages`, { method: 'POST', body: JSON.stringify({ ...params, stream: true }) })
    expect(response.headers.get('content-type')).toContain('text/event-stream')
    expect(response.headers.get('request-id')).toMatch(/^req_/)
    const text = await response.text()
    expect(text.indexOf('event: message_start')).toBeLessThan(text.indexOf('event: ping'))
    expect(text.trim().endsWith('data: {"type":"message_stop"}')).toBe(true)
  })

  it('returns real error bodies: prompt too long, 401, 529, spend limit', async () => {
    server.setScenario([promptTooLong(), unauthorized(), overloaded(), spendLimitReached()])
    const tooLong = await client.messages.create(params).catch((e: unknown) => e)
    expect(tooLong).toBeInstanceOf(Anthropic.BadRequestError)
    expect((tooLong as InstanceType<typeof Anthropic.APIError>).message).toContain('prompt is too long: 219898 tokens > 200000 maximum')
    expect((tooLong as InstanceType<typeof Anthropic.APIError>).requestID).toMatch(/^req_/)
    await expect(client.messages.create(params)).rejects.toBeInstanceOf(Anthropic.AuthenticationError)
    const over = await client.messages.create(params).catch((e: unknown) => e)
    expect((over as InstanceType<typeof Anthropic.APIError>).status).toBe(529)
    expect((over as InstanceType<typeof Anthropic.APIError>).type).toBe('overloaded_error')
    const spend = await client.messages.create(params).catch((e: unknown) => e)
    expect((spend as InstanceType<typeof Anthropic.APIError>).errorCode).toBe('enforced_spend_limit_reached')
  })

  it('sends retry-after on 429, and the SDK retries after it', async () => {
    server.setScenario([rateLimited(1), textReply('after the wait')])
    const retrying = new Anthropic({ baseURL: server.url, apiKey: 'test', maxRetries: 1 })
    const message = await retrying.messages.create(params)
    expect(message.content[0]).toMatchObject({ text: 'after the wait' })
    expect(server.requests).toHaveLength(2)
    const response = await fetch(`${server.url}/v1/messages`, { method: 'POST', body: JSON.stringify(params) })
    expect(response.status).toBe(500) // scenario exhausted, loudly
    const invalid = await fetch(`${server.url}/v1/messages`, { method: 'POST', body: JSON.stringify({ ...params, model: '' }) })
    expect(invalid.status).toBe(400) // as the real API: no model, no answer
    expect(await invalid.json()).toMatchObject({ error: { type: 'invalid_request_error', message: expect.stringContaining('model') } })
    server.setScenario([rateLimited(7)])
    const limited = await fetch(`${server.url}/v1/messages`, { method: 'POST', body: JSON.stringify(params) })
    expect(limited.status).toBe(429)
    expect(limited.headers.get('retry-after')).toBe('7')
    expect(await limited.json()).toMatchObject({ type: 'error', error: { type: 'rate_limit_error' }, request_id: expect.any(String) })
  })

  it('emits a mid-stream error event after some deltas', async () => {
    server.setScenario([midStreamOverload(2)])
    const deltas: string[] = []
    const error = await (async () => {
      for await (const event of client.messages.stream(params)) {
        if (event.type === 'content_block_delta' && event.delta.type === 'text_delta') deltas.push(event.delta.text)
      }
    })().catch((e: unknown) => e)
    expect(deltas).toHaveLength(2)
    expect(error).toBeInstanceOf(Anthropic.APIError)
    expect((error as InstanceType<typeof Anthropic.APIError>).type).toBe('overloaded_error')
  })

  it('drops the connection before headers and mid-stream', async () => {
    server.setScenario([dropConnection('before-headers'), dropConnection('mid-stream', 1)])
    await expect(client.messages.create(params)).rejects.toBeInstanceOf(Anthropic.APIConnectionError)
    const deltas: string[] = []
    const error = await (async () => {
      for await (const event of client.messages.stream(params)) {
        if (event.type === 'content_block_delta' && event.delta.type === 'text_delta') deltas.push(event.delta.text)
      }
    })().catch((e: unknown) => e)
    expect(deltas).toHaveLength(1)
    expect(error).toBeInstanceOf(Error)
  })

  it('fails loudly when the script runs out or a step rejects the request', async () => {
    server.setScenario([
      { ...textReply('never'), label: 'wants opus', match: (r) => r.model === 'claude-opus-4-5' },
      {
        ...textReply('never'),
        expect: (r) => {
          if (r.body['max_tokens'] !== 5) throw new Error(`max_tokens was ${String(r.body['max_tokens'])}`)
        },
      },
    ])
    await expect(client.messages.create(params)).rejects.toThrow(/step 0 \(wants opus\) did not match/)
    await expect(client.messages.create(params)).rejects.toThrow(/max_tokens was 1024/)
    await expect(client.messages.create(params)).rejects.toThrow(/scenario exhausted/)
    expect(server.failures).toHaveLength(3)
  })

  it('gives requests for a model their own lane with forModel', async () => {
    server.setScenario([
      { ...textReply('main one'), forModel: 'claude-sonnet-4-6' },
      { ...textReply('main two'), forModel: 'claude-sonnet-4-6' },
      { ...textReply('side'), forModel: 'claude-haiku-4-5' },
    ])
    const text = async (model: string) => ((await client.messages.create({ ...params, model })).content[0] as { text: string }).text
    expect(await text('claude-sonnet-4-6')).toBe('main one')
    expect(await text('claude-haiku-4-5')).toBe('side')
    expect(server.remaining()).toBe(1)
    expect(await text('claude-sonnet-4-6')).toBe('main two')
    await expect(client.messages.create({ ...params, model: 'claude-haiku-4-5' })).rejects.toThrow(/scenario exhausted/)
    expect(server.failures).toHaveLength(1)
    server.failures.length = 0
  })

  it('lets a step be a function of the request', async () => {
    server.setScenario([
      (request) => {
        const messages = request.body['messages'] as Array<{ content: string }>
        return textReply(`echo: ${messages[0]?.content ?? ''}`)
      },
    ])
    const message = await client.messages.create(params)
    expect(message.content[0]).toMatchObject({ text: 'echo: hello' })
  })

  it('simulates prompt caching from cache_control breakpoints', async () => {
    const system = [{ type: 'text' as const, text: 'S'.repeat(4000), cache_control: { type: 'ephemeral' as const } }]
    const turn1 = [{ role: 'user' as const, content: [{ type: 'text' as const, text: 'U'.repeat(400), cache_control: { type: 'ephemeral' as const } }] }]
    server.setScenario([textReply('a', { chunkSize: 50 }), textReply('b')])
    const first = await client.messages.create({ ...params, system, messages: turn1 })
    expect(first.usage.cache_read_input_tokens).toBe(0)
    expect(first.usage.cache_creation_input_tokens).toBeGreaterThan(1000)
    const turn2 = [
      { role: 'user' as const, content: [{ type: 'text' as const, text: 'U'.repeat(400) }] },
      { role: 'assistant' as const, content: [{ type: 'text' as const, text: 'a' }] },
      { role: 'user' as const, content: [{ type: 'text' as const, text: 'next', cache_control: { type: 'ephemeral' as const } }] },
    ]
    const second = await client.messages.create({ ...params, system, messages: turn2 })
    // The system prefix hits; the first user block lost its breakpoint but was cached at turn 1 only
    // as part of the prefix ending at it, which is identical, so it hits too.
    expect(second.usage.cache_read_input_tokens).toBe(first.usage.cache_creation_input_tokens)
    expect(second.usage.cache_creation_input_tokens).toBeGreaterThan(0)
    expect(second.usage.input_tokens).toBe(1)
  })
})
