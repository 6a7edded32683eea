import { describe, expect, it } from 'vitest'
import {
  dropConnection,
  overloaded,
  textReply,
  thinkingReply,
  toolUseReply,
  toolUsesReply,
} from '../../../test/model-server'
import type { Message, ToolResultBlock } from '../services/model/types'
import { baseParams, expectPaired, ofType, runQuery, scriptedModel, sentAt, testTool, untilAborted } from '../../../test/support/engine'
import { useModelServer } from '../../../test/model-server/vitest'

// The real loop, the real model service and SDK, the scripted HTTP server on 127.0.0.1.
const server = useModelServer()

const echo = testTool('Echo', { safe: true, run: async (input) => ({ content: `echo:${input.value}` }) })

const sentMessages = (index: number): Message[] => sentAt(server, index)

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

  it('asks for adaptive thinking by default and sends thinking blocks back intact, redacted ones included', async () => {
    const reply = [
      { type: 'thinking' as const, thinking: 'Let me check.', signature: 'sig-123' },
      { type: 'redacted_thinking' as const, data: 'EncryptedOpaque==' },
      { type: 'tool_use' as const, id: 'toolu_t', name: 'Echo', input: { value: 'v' } },
    ]
    server.setScenario([{ reply: { content: reply } }, thinkingReply('Done thinking.', 'Answer.', { signature: 'sig-456' })])
    const { result } = await runQuery(baseParams(scriptedModel(server.url), { tools: [echo], reasoning: { display: 'summarized', effort: 'high' } }))
    expect(server.requests[0]!.body['thinking']).toEqual({ type: 'adaptive', display: 'summarized' })
    expect(server.requests[0]!.body['output_config']).toEqual({ effort: 'high' })
    // The next request carries the assistant message exactly as it came: every block, in order, signatures intact.
    const assistant = sentMessages(1)[1]!
    expect(assistant).toEqual({ role: 'assistant', content: reply })
    // The conversation keeps them too (the transcript gets what the loop appends).
    expect(result.messages[1]).toEqual({ role: 'assistant', content: reply })
  })

  it('gives a model that needs a budget Claude Code’s 31999, and no thinking nor effort when turned off', async () => {
    server.setScenario([textReply('one'), textReply('two')])
    await runQuery(baseParams(scriptedModel(server.url), { modelName: 'claude-sonnet-4-5', reasoning: { effort: 'low' } }))
    expect(server.requests[0]!.body['thinking']).toEqual({ type: 'enabled', budget_tokens: 31999 })
    expect(server.requests[0]!.body['max_tokens']).toBe(64000)
    // Sonnet 4.5 takes no effort field.
    expect(server.requests[0]!.body['output_config']).toBeUndefined()
    await runQuery(baseParams(scriptedModel(server.url), { reasoning: { thinking: false } }))
    expect(server.requests[1]!.body['thinking']).toBeUndefined()
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

  it('a permission check or PostToolUse hook that throws is reported, fails closed and loses no result', async () => {
    server.setScenario([
      toolUsesReply([
        { name: 'Echo', input: { value: 'a' }, id: 'toolu_denied' },
        { name: 'Echo', input: { value: 'b' }, id: 'toolu_ran' },
      ]),
      textReply('done'),
    ])
    const { events, result } = await runQuery(
      baseParams(scriptedModel(server.url), {
        tools: [echo],
        canUseTool: async (_tool, input) => {
          if ((input as { value: string }).value === 'a') throw new Error('settings exploded')
          return { behavior: 'allow' }
        },
        hooks: {
          postToolUse: async () => {
            throw new Error('hook exploded')
          },
        },
      }),
    )
    expect(result.reason).toBe('completed')
    const results = sentMessages(1).at(-1)!.content as ToolResultBlock[]
    expect(results.map((block) => [block.tool_use_id, block.is_error === true, block.content])).toEqual([
      ['toolu_denied', true, 'Permission to use Echo was denied: The permission check failed: settings exploded'],
      ['toolu_ran', false, 'echo:b'],
    ])
    expect(ofType(events, 'notice').map((event) => [event.level, event.message])).toEqual([
      ['warning', 'The permission check failed: settings exploded'],
      ['warning', 'The PostToolUse hook failed: hook exploded'],
    ])
    expectPaired(result.messages)
  })
})
