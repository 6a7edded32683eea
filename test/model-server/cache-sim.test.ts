import { describe, expect, it } from 'vitest'
import { PromptCacheSimulator, estimateTokens } from './cache-sim'

const bp = { type: 'ephemeral' }
const tools = [{ name: 'Read', description: 'd'.repeat(400), input_schema: {} }]
const system = [{ type: 'text', text: 's'.repeat(2000), cache_control: bp }]

describe('PromptCacheSimulator', () => {
  it('writes up to the last breakpoint, then reads the identical prefix', () => {
    const sim = new PromptCacheSimulator()
    const body = { tools, system, messages: [{ role: 'user', content: [{ type: 'text', text: 'hi', cache_control: bp }] }] }
    const first = sim.account(body)
    expect(first.cache_read_input_tokens).toBe(0)
    expect(first.cache_creation_input_tokens).toBeGreaterThan(estimateTokens('s'.repeat(2000)))
    const second = sim.account(body)
    expect(second.cache_read_input_tokens).toBe(first.cache_creation_input_tokens)
    expect(second.cache_creation_input_tokens).toBe(0)
  })

  it('pays plain input without breakpoints and misses when the prefix changes', () => {
    const sim = new PromptCacheSimulator()
    const plain = sim.account({ system: 'x'.repeat(400), messages: [{ role: 'user', content: 'hi' }] })
    expect(plain).toEqual({ input_tokens: plain.input_tokens, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 })
    expect(plain.input_tokens).toBeGreaterThan(100)
    sim.account({ tools, system, messages: [] })
    const changedTools = sim.account({ tools: [{ ...tools[0], description: 'changed' }], system, messages: [] })
    expect(changedTools.cache_read_input_tokens).toBe(0)
  })

  it('reads only the part before the first difference that ends at an earlier breakpoint', () => {
    const sim = new PromptCacheSimulator()
    const msgs = (last: string) => [
      { role: 'user', content: [{ type: 'text', text: 'a'.repeat(400) }] },
      { role: 'assistant', content: [{ type: 'text', text: last, cache_control: bp }] },
    ]
    const first = sim.account({ system, messages: msgs('one') })
    const second = sim.account({ system, messages: msgs('two') })
    expect(second.cache_read_input_tokens).toBe(estimateTokens(`system:${JSON.stringify({ type: 'text', text: 's'.repeat(2000) })}`))
    expect(second.cache_read_input_tokens + second.cache_creation_input_tokens).toBe(first.cache_creation_input_tokens)
  })

  it('caches nothing below the minimum prefix', () => {
    const sim = new PromptCacheSimulator(100_000)
    const body = { system, messages: [] }
    sim.account(body)
    expect(sim.account(body).cache_read_input_tokens).toBe(0)
    expect(sim.account(body).cache_creation_input_tokens).toBe(0)
  })

  it('honours a top-level automatic cache_control', () => {
    const sim = new PromptCacheSimulator()
    const body = { cache_control: bp, system: 'x'.repeat(400), messages: [{ role: 'user', content: 'hello' }] }
    expect(sim.account(body).cache_creation_input_tokens).toBeGreaterThan(0)
    expect(sim.account(body).cache_read_input_tokens).toBeGreaterThan(0)
  })
})
