import { describe, expect, it } from 'vitest'
import {
  dropConnection,
  midStreamOverload,
  overloaded,
  promptTooLong,
  textReply,
  thinkingReply,
  toolUseReply,
  toolUsesReply,
} from '../../../test/model-server'
import type { Message, ToolResultBlock } from '../services/model/types'
import { baseParams, ofType, runQuery, scriptedModel, testTool, untilAborted } from '../../../test/support/engine'
import { CONTINUATION_NUDGE } from './transitions/max-tokens'
import { useModelServer } from '../../../test/model-server/vitest'

// The real loop, the real model service and SDK, the scripted HTTP server on 127.0.0.1.
const server = useModelServer()

const echo = testTool('Echo', { safe: true, run: async (input) => ({ content: `echo:${input.value}` }) })

function sentMessages(index: number): Message[] {
  return server.requests[index]!.body['messages'] as Message[]
}

/** Every tool_use in a conversation is answered, first thing, by the next user message. */
function expectPaired(messages: Message[]): void {
  messages.forEach((message, index) => {
    if (message.role !== 'assistant') return
    const ids = message.content.flatMap((block) => (block.type === 'tool_use' ? [block.id] : []))
    if (ids.length === 0) return
    const next = messages[index + 1]
    expect(next?.role).toBe('user')
    const blocks = next!.content as ToolResultBlock[]
    expect(blocks.slice(0, ids.length).map((block) => [block.type, block.tool_use_id])).toEqual(ids.map((id) => ['tool_result', id]))
  })
}

describe('query', () => {
  it('streams a text reply and completes', async () => {
    server.setScenario([textReply('Hello there.')])
    const { events, result } = await runQuery(baseParams(scriptedModel(server.url)))
    expect(result.reason).toBe('completed')
    expect(result.resultText).toBe('Hello there.')
    expect(ofType(events, 'text_delta').map((event) => event.text).join('')).toBe('Hello there.')
    expect(events.at(-1)).toMatchObject({ type: 'turn_end', reason: 'completed', sessionId: 'session-test', agentId: 'main' })
    const usage = ofType(events, 'usage')
    expect(usage).toHaveLength(1)
    expect(usage[0]!.request.outputTokens).toBeGreaterThan(0)
    expect(server.failures).toEqual([])
  })

  it('runs tool calls, keeps the model order and puts results first', async () => {
    server.setScenario([
      toolUsesReply([
        { name: 'Echo', input: { value: 'a' }, id: 'toolu_a' },
        { name: 'Echo', input: { value: 'b' }, id: 'toolu_b' },
      ]),
      textReply('done'),
    ])
    const { events, result } = await runQuery(baseParams(scriptedModel(server.url), { tools: [echo] }))
    expect(result.reason).toBe('completed')
    const second = sentMessages(1)
    const results = second.at(-1)!.content as ToolResultBlock[]
    expect(results.map((block) => [block.tool_use_id, block.content])).toEqual([
      ['toolu_a', 'echo:a'],
      ['toolu_b', 'echo:b'],
    ])
    expect(ofType(events, 'tool_end').map((event) => event.toolUseId).sort()).toEqual(['toolu_a', 'toolu_b'])
    expectPaired(result.messages)
  })

  it('reads currentTools before every request: a tool that joins mid-run is offered and callable', async () => {
    const late = testTool('Late', { safe: true, run: async () => ({ content: 'late ran' }) })
    let tools = [echo]
    const toolNames = (index: number) => (server.requests[index]!.body['tools'] as Array<{ name: string }>).map((tool) => tool.name)
    server.setScenario([
      toolUseReply('Echo', { value: 'first' }),
      toolUseReply('Late', { value: 'x' }, { id: 'toolu_late' }),
      textReply('done'),
    ])
    const { result } = await runQuery(
      baseParams(scriptedModel(server.url), {
        tools,
        currentTools: () => tools,
        canUseTool: async (tool) => {
          // The first call's permission check is where the pool grows, as an MCP server would.
          if (tool.name === 'Echo') tools = [echo, late]
          return { behavior: 'allow' }
        },
      }),
    )
    expect(result.reason).toBe('completed')
    expect(toolNames(0)).toEqual(['Echo'])
    expect(toolNames(1)).toEqual(['Echo', 'Late'])
    expect((sentMessages(2).at(-1)!.content as ToolResultBlock[])[0]).toMatchObject({ tool_use_id: 'toolu_late', content: 'late ran' })
  })

  it('runs consecutive safe calls together and an unsafe call alone', async () => {
    let running = 0
    const log: string[] = []
    const track = (name: string, safe: boolean) =>
      testTool(name, {
        safe,
        run: async (input) => {
          running++
          log.push(`start ${input.value} (${running} running)`)
          await new Promise((resolve) => setTimeout(resolve, 30))
          running--
          return { content: input.value }
        },
      })
    server.setScenario([
      toolUsesReply([
        { name: 'Safe', input: { value: 's1' } },
        { name: 'Safe', input: { value: 's2' } },
        { name: 'Unsafe', input: { value: 'u' } },
        { name: 'Safe', input: { value: 's3' } },
      ]),
      textReply('ok'),
    ])
    const { result } = await runQuery(baseParams(scriptedModel(server.url), { tools: [track('Safe', true), track('Unsafe', false)] }))
    expect(result.reason).toBe('completed')
    expect(log).toEqual(['start s1 (1 running)', 'start s2 (2 running)', 'start u (1 running)', 'start s3 (1 running)'])
    const results = sentMessages(1).at(-1)!.content as ToolResultBlock[]
    expect(results.map((block) => block.content)).toEqual(['s1', 's2', 'u', 's3'])
  })

  it('starts a safe call while the reply is still streaming', async () => {
    server.setScenario([
      {
        reply: {
          content: [
            { type: 'tool_use', id: 'toolu_early', name: 'Echo', input: { value: 'x' } },
            { type: 'text', text: 'I am still talking while the tool already runs in the background.' },
          ],
        },
        chunkSize: 4,
        delayMs: 15,
      },
      textReply('done'),
    ])
    const { events } = await runQuery(baseParams(scriptedModel(server.url), { tools: [echo] }))
    const toolDone = events.findIndex((event) => event.type === 'tool_end' && event.toolUseId === 'toolu_early')
    const replyEnd = events.findIndex((event) => event.type === 'assistant_message')
    expect(toolDone).toBeGreaterThan(-1)
    expect(toolDone).toBeLessThan(replyEnd)
  })

  it('re-issues after a mid-stream error and discards the partial reply', async () => {
    server.setScenario([midStreamOverload(2), textReply('Recovered.')])
    const { events, result } = await runQuery(baseParams(scriptedModel(server.url)))
    expect(result.reason).toBe('completed')
    expect(result.resultText).toBe('Recovered.')
    expect(ofType(events, 'model_retry')[0]?.reason).toContain('stream_interrupted')
    expect(sentMessages(1)).toEqual(sentMessages(0))
    expect(result.messages.filter((message) => message.role === 'assistant')).toHaveLength(1)
  })

  it('aborts a safe call started by a reply whose connection dropped, and never runs a partial tool_use', async () => {
    let sawAbort = false
    let partialRan = false
    const slow = testTool('Slow', {
      safe: true,
      run: async (_input, ctx) => {
        await untilAborted(ctx.signal)
        sawAbort = true
        return { content: 'stopped' }
      },
    })
    const never = testTool('Never', { safe: true, run: async () => ((partialRan = true), { content: 'ran' }) })
    server.setScenario([
      {
        drop: 'mid-stream',
        afterDeltas: 5,
        reply: {
          content: [
            { type: 'tool_use', id: 'toolu_slow', name: 'Slow', input: { value: 'x' } },
            { type: 'tool_use', id: 'toolu_partial', name: 'Never', input: { value: 'a long value so the json is cut' } },
          ],
        },
        jsonChunks: 3,
      },
      toolUseReply('Echo', { value: 'again' }, { id: 'toolu_new' }),
      textReply('done'),
    ])
    const { events, result } = await runQuery(baseParams(scriptedModel(server.url), { tools: [slow, never, echo] }))
    expect(result.reason).toBe('completed')
    expect(sawAbort).toBe(true)
    expect(partialRan).toBe(false)
    const ids = result.messages.flatMap((message) =>
      message.role === 'user' && typeof message.content !== 'string'
        ? message.content.flatMap((block) => (block.type === 'tool_result' ? [block.tool_use_id] : []))
        : [],
    )
    expect(ids).toEqual(['toolu_new'])
    expectPaired(result.messages)
    // The UI saw the discarded card closed.
    expect(ofType(events, 'tool_end').find((event) => event.toolUseId === 'toolu_slow')?.isError).toBe(true)
  })

  it('gives up after bounded re-issues with model_error', async () => {
    server.setScenario([midStreamOverload(1), midStreamOverload(1), midStreamOverload(1), midStreamOverload(1)])
    const { result } = await runQuery(baseParams(scriptedModel(server.url)))
    expect(result.reason).toBe('model_error')
    expect(server.requests).toHaveLength(4)
  })

  it('on max_tokens raises the limit once, then nudges three times, then stops', async () => {
    const cut = (text: string) => textReply(text, { stopReason: 'max_tokens' })
    server.setScenario([cut('first'), cut('part one'), cut('part two'), cut('part three'), cut('part four')])
    const { result } = await runQuery(baseParams(scriptedModel(server.url)))
    expect(result.reason).toBe('max_tokens')
    expect(server.requests.map((request) => request.body['max_tokens'])).toEqual([8192, 64000, 64000, 64000, 64000])
    expect(sentMessages(1)).toEqual(sentMessages(0))
    const last = sentMessages(4)
    expect(last.filter((message) => message.role === 'assistant').map((message) => (message.content as Array<{ text: string }>)[0]!.text)).toEqual([
      'part one',
      'part two',
      'part three',
    ])
    expect(JSON.stringify(last.at(-1))).toContain(CONTINUATION_NUDGE)
    expect(result.messages.filter((message) => message.role === 'assistant')).toHaveLength(4)
  })

  it('never runs a tool_use cut by max_tokens', async () => {
    let ran = false
    const tool = testTool('Echo', { safe: true, run: async () => ((ran = true), { content: 'x' }) })
    server.setScenario([
      toolUseReply('Echo', { value: 'cut' }, { stopReason: 'max_tokens', text: 'Let me' }),
      toolUseReply('Echo', { value: 'cut' }, { stopReason: 'max_tokens', text: 'Let me' }),
      textReply('fine'),
    ])
    const { result } = await runQuery(baseParams(scriptedModel(server.url), { tools: [tool] }))
    expect(ran).toBe(false)
    expect(result.reason).toBe('completed')
    expectPaired(result.messages)
  })

  it('ends with prompt_too_long and an intact transcript when nothing can compact', async () => {
    server.setScenario([promptTooLong()])
    const params = baseParams(scriptedModel(server.url))
    const { result } = await runQuery(params)
    expect(result.reason).toBe('prompt_too_long')
    expect(result.messages).toEqual(params.messages)
  })

  it('hands an overflowing conversation to the compactor and goes on', async () => {
    server.setScenario([promptTooLong(), textReply('fits now')])
    const summary: Message[] = [{ role: 'user', content: [{ type: 'text', text: 'Summary of earlier work. Continue.' }] }]
    const { result } = await runQuery(baseParams(scriptedModel(server.url), { compact: async () => summary }))
    expect(result.reason).toBe('completed')
    expect(sentMessages(1)[0]).toMatchObject({ content: [{ text: 'Summary of earlier work. Continue.' }] })
  })

  it('reports a denied call as an error result and goes on', async () => {
    server.setScenario([toolUseReply('Echo', { value: 'rm' }, { id: 'toolu_d' }), textReply('ok, not doing it')])
    const { result } = await runQuery(
      baseParams(scriptedModel(server.url), { tools: [echo], canUseTool: async () => ({ behavior: 'deny', message: 'not in plan mode' }) }),
    )
    const answer = (sentMessages(1).at(-1)!.content as ToolResultBlock[])[0]!
    expect(answer).toMatchObject({ tool_use_id: 'toolu_d', is_error: true })
    expect(String(answer.content)).toContain('not in plan mode')
    expect(result.reason).toBe('completed')
  })

  it('turns a crashing tool and an unknown tool into error results', async () => {
    const crash = testTool('Crash', { run: async () => Promise.reject(new Error('boom')) })
    server.setScenario([
      toolUsesReply([
        { name: 'Crash', input: { value: '1' } },
        { name: 'Nope', input: {} },
        { name: 'Echo', input: { wrong: 1 } },
      ]),
      textReply('ok'),
    ])
    const { result } = await runQuery(baseParams(scriptedModel(server.url), { tools: [crash, echo] }))
    const results = sentMessages(1).at(-1)!.content as ToolResultBlock[]
    expect(results.map((block) => block.is_error)).toEqual([true, true, true])
    expect(String(results[0]!.content)).toContain('boom')
    expect(String(results[1]!.content)).toContain('no tool named Nope')
    expect(String(results[2]!.content)).toContain('InputValidationError')
    expect(result.reason).toBe('completed')
  })

  it('stops at max turns', async () => {
    server.setScenario([toolUseReply('Echo', { value: '1' }), toolUseReply('Echo', { value: '2' })])
    const { result } = await runQuery(baseParams(scriptedModel(server.url), { tools: [echo], maxTurns: 2 }))
    expect(result.reason).toBe('max_turns')
    expect(result.turns).toBe(2)
    expectPaired(result.messages)
  })

  it('lets a Stop hook force one more round, but not twice in a row', async () => {
    server.setScenario([textReply('done?'), textReply('really done')])
    let calls = 0
    const { result } = await runQuery(
      baseParams(scriptedModel(server.url), { hooks: { onStop: async () => (calls++, { blockReason: 'Run the tests first.' }) } }),
    )
    expect(result.reason).toBe('completed')
    expect(calls).toBe(1)
    expect(JSON.stringify(sentMessages(1).at(-1))).toContain('Run the tests first.')
  })

  it('aborts during the stream quickly and cleanly', async () => {
    server.setScenario([{ ...textReply('x'.repeat(400)), chunkSize: 2, delayMs: 20 }])
    const controller = new AbortController()
    const { result } = await runQuery(baseParams(scriptedModel(server.url), { signal: controller.signal }), (event) => {
      if (event.type === 'text_delta') controller.abort()
    })
    expect(result.reason).toBe('aborted')
    expect(result.messages).toHaveLength(1)
  })

  it('aborts during a tool and still answers every tool_use', async () => {
    const slow = testTool('Slow', { run: async (_input, ctx) => (await untilAborted(ctx.signal), { content: 'interrupted', isError: true }) })
    server.setScenario([toolUsesReply([{ name: 'Slow', input: { value: '1' } }, { name: 'Slow', input: { value: '2' } }])])
    const controller = new AbortController()
    const { result } = await runQuery(baseParams(scriptedModel(server.url), { tools: [slow], signal: controller.signal }), (event) => {
      if (event.type === 'tool_state' && event.state === 'running') controller.abort()
    })
    expect(result.reason).toBe('aborted')
    expectPaired(result.messages)
    const results = result.messages.at(-1)!.content as ToolResultBlock[]
    expect(results.map((block) => block.is_error)).toEqual([true, true])
    expect(String(results[1]!.content)).toContain('not executed')
  })

  it('sends thinking blocks back unmodified with their signatures', async () => {
    server.setScenario([
      { reply: { content: [{ type: 'thinking', thinking: 'Let me check.', signature: 'sig-123' }, { type: 'tool_use', id: 'toolu_t', name: 'Echo', input: { value: 'v' } }] } },
      thinkingReply('Done thinking.', 'Answer.', { signature: 'sig-456' }),
    ])
    await runQuery(baseParams(scriptedModel(server.url), { tools: [echo], thinkingBudget: 1024 }))
    const assistant = sentMessages(1)[1]!
    expect(assistant.content[0]).toEqual({ type: 'thinking', thinking: 'Let me check.', signature: 'sig-123' })
  })

  it('forwards a switch to the fallback model', async () => {
    server.setScenario([overloaded(), overloaded(), overloaded(), toolUseReply('Echo', { value: 'v' }), textReply('from the fallback')])
    const { events, result } = await runQuery(baseParams(scriptedModel(server.url, 'claude-haiku-4-5'), { tools: [echo] }))
    expect(result.reason).toBe('completed')
    expect(ofType(events, 'model_fallback')[0]).toMatchObject({ from: 'claude-sonnet-4-6', to: 'claude-haiku-4-5' })
    // The rest of the run stays on the fallback model.
    expect(server.requests.slice(3).map((request) => request.model)).toEqual(['claude-haiku-4-5', 'claude-haiku-4-5'])
    expectPaired(result.messages)
  })

  it('survives a connection dropped before the response', async () => {
    server.setScenario([dropConnection('before-headers'), textReply('ok')])
    const { result } = await runQuery(baseParams(scriptedModel(server.url)))
    expect(result.reason).toBe('completed')
  })
})
