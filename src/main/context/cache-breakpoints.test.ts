import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startModelServer, textReply, toolUseReply, type ModelServer } from '../../../test/model-server'
import { flattenPrompt } from '../../../test/model-server/cache-sim'
import { baseParams, runQuery, scriptedModel, testTool } from '../../../test/support/engine'
import type { Message } from '../services/model/types'
import { withMessageBreakpoints } from './cache-breakpoints'

function marks(messages: Message[]): string[] {
  return messages.flatMap((message, m) =>
    typeof message.content === 'string' ? [] : message.content.flatMap((block, b) => ('cache_control' in block && block.cache_control ? [`${m}.${b}`] : [])),
  )
}

describe('withMessageBreakpoints', () => {
  it('marks the last block and the end of the previous user message, on copies', () => {
    const messages: Message[] = [
      { role: 'user', content: 'first' },
      { role: 'assistant', content: [{ type: 'text', text: 'a' }, { type: 'tool_use', id: 't1', name: 'X', input: {} }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: 'r' }, { type: 'text', text: 'note' }] },
    ]
    const out = withMessageBreakpoints(messages)
    expect(marks(out)).toEqual(['0.0', '2.1'])
    expect(out[0]).toEqual({ role: 'user', content: [{ type: 'text', text: 'first', cache_control: { type: 'ephemeral' } }] })
    expect(marks(messages)).toEqual([])
    expect(out[1]).toBe(messages[1])
  })

  it('with deferNewest, moves both back a round: the newest results are sent after the last breakpoint', () => {
    const messages: Message[] = [
      { role: 'user', content: 'first' },
      { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'Read', input: {} }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: 'stub' }] },
      { role: 'assistant', content: [{ type: 'text', text: 'next' }, { type: 'tool_use', id: 't2', name: 'Read', input: {} }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't2', content: 'a large file' }] },
    ]
    expect(marks(withMessageBreakpoints(messages, { deferNewest: true }))).toEqual(['1.0', '3.1'])
    expect(marks(withMessageBreakpoints(messages))).toEqual(['2.0', '4.0'])
    // Nothing to move back to: the newest is the only message.
    expect(marks(withMessageBreakpoints([{ role: 'user', content: 'hi' }], { deferNewest: true }))).toEqual(['0.0'])
  })

  it('uses one breakpoint for a single message and none for an empty list', () => {
    expect(marks(withMessageBreakpoints([{ role: 'user', content: 'hi' }]))).toEqual(['0.0'])
    expect(withMessageBreakpoints([])).toEqual([])
  })
})

describe('prompt caching across requests (recorded by the scripted server)', () => {
  let server: ModelServer
  beforeAll(async () => {
    server = await startModelServer()
  })
  afterAll(async () => {
    await server.close()
  })

  it('reads exactly the prefix the previous request wrote, with at most 4 breakpoints', async () => {
    const echo = testTool('Echo', { safe: true, run: async (input) => ({ content: `result ${input.value} `.repeat(50) }) })
    server.setScenario([
      toolUseReply('Echo', { value: '1' }),
      toolUseReply('Echo', { value: '2' }),
      textReply('first turn done'),
      toolUseReply('Echo', { value: '3' }),
      textReply('second turn done'),
    ])
    const model = scriptedModel(server.url)
    const first = await runQuery(baseParams(model, { tools: [echo] }))
    const next: Message[] = [...first.result.messages, { role: 'user', content: [{ type: 'text', text: 'And now?' }] }]
    await runQuery(baseParams(model, { tools: [echo], messages: next }))
    expect(server.failures).toEqual([])
    expect(server.requests).toHaveLength(5)
    for (const [index, request] of server.requests.entries()) {
      const body = JSON.stringify(request.body)
      const count = body.split('"cache_control"').length - 1
      expect(count).toBe(index === 0 ? 3 : 4)
      if (index === 0) continue
      // The previous request's last breakpoint is a breakpoint here too (no reliance on look-back).
      const lastOfPrevious = Math.max(...breakpointsOf(server.requests[index - 1]!.body))
      expect(breakpointsOf(request.body)).toContain(lastOfPrevious)
      const previous = server.requests[index - 1]!.simulatedUsage
      // Everything the previous request cached up to its last breakpoint is read back, nothing less.
      expect(request.simulatedUsage.cache_read_input_tokens).toBe(previous.cache_read_input_tokens + previous.cache_creation_input_tokens)
    }
  })
})

function breakpointsOf(body: Record<string, unknown>): number[] {
  return flattenPrompt(body).flatMap((block, index) => (block.breakpoint ? [index] : []))
}
