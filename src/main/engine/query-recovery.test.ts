import { describe, expect, it } from 'vitest'
import { midStreamOverload, promptTooLong, textReply, toolUseReply } from '../../../test/model-server'
import { useModelServer } from '../../../test/model-server/vitest'
import { baseParams, expectPaired, ofType, runQuery, scriptedModel, sentAt, testTool, untilAborted } from '../../../test/support/engine'
import { ContextManager } from '../compaction/manager'
import { compactionSettings } from '../compaction/settings'
import type { Message } from '../services/model/types'
import { CONTINUATION_NUDGE } from './transitions/max-tokens'

// The loop's recovery transitions (stream_retry, max_tokens_recovery, reactive_compact_retry,
// stop_hook_blocking) with the real SDK against the scripted server.
const server = useModelServer()

const echo = testTool('Echo', { safe: true, run: async (input) => ({ content: `echo:${input.value}` }) })
const sentMessages = (index: number): Message[] => sentAt(server, index)

describe('query: recovery transitions', () => {
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

  it('asks for the model ceiling at once; a reply cut there is kept and nudged three times, never generated again', async () => {
    const cut = (text: string) => textReply(text, { stopReason: 'max_tokens' })
    server.setScenario([cut('part one'), cut('part two'), cut('part three'), cut('part four')])
    const { result } = await runQuery(baseParams(scriptedModel(server.url)))
    expect(result.reason).toBe('max_tokens')
    // claude-sonnet-4-6's own ceiling on every request, the first included: nothing is thrown away.
    expect(server.requests.map((request) => request.body['max_tokens'])).toEqual([64000, 64000, 64000, 64000])
    const last = sentMessages(3)
    expect(last.filter((message) => message.role === 'assistant').map((message) => (message.content as Array<{ text: string }>)[0]!.text)).toEqual([
      'part one',
      'part two',
      'part three',
    ])
    expect(JSON.stringify(last.at(-1))).toContain(CONTINUATION_NUDGE)
    expect(result.messages.filter((message) => message.role === 'assistant')).toHaveLength(4)
  })

  it('CLAUDE_CODE_MAX_OUTPUT_TOKENS (the maxTokens override) replaces the ceiling', async () => {
    server.setScenario([textReply('short')])
    await runQuery(baseParams(scriptedModel(server.url), { maxTokens: 12_000 }))
    expect(server.requests[0]!.body['max_tokens']).toBe(12_000)
  })

  it('a model whose ceiling is lower than asked is sent again once with the ceiling the API names', async () => {
    server.setScenario([
      { error: { status: 400, type: 'invalid_request_error', message: 'max_tokens: 64000 > 32000, which is the maximum allowed number of output tokens for claude-sonnet-4-6' } },
      textReply('fits'),
      textReply('again'),
    ])
    const model = scriptedModel(server.url)
    const { result } = await runQuery(baseParams(model))
    expect(result.resultText).toBe('fits')
    await runQuery(baseParams(model))
    // The service keeps the ceiling it learned: the next request asks for it straight away.
    expect(server.requests.map((request) => request.body['max_tokens'])).toEqual([64000, 32000, 32000])
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

  it('hands an overflowing conversation to context management and re-sends the request', async () => {
    server.setScenario([promptTooLong(), textReply('<analysis>a</analysis><summary>Summary of earlier work.</summary>'), textReply('fits now')])
    const context = new ContextManager({ settings: compactionSettings({ contextWindow: 100_000 }) })
    const { events, result } = await runQuery(baseParams(scriptedModel(server.url), { context, messages: longConversation() }))
    expect(result.reason).toBe('completed')
    expect(JSON.stringify(sentMessages(2)[0])).toContain('Summary of earlier work.')
    expect(ofType(events, 'compaction').map((event) => [event.layer, event.status])).toEqual([['reactive', 'done']])
  })

  it('a request still too long after compaction ends the run with a clear message and the conversation intact', async () => {
    server.setScenario([promptTooLong(), textReply('<summary>Short.</summary>'), promptTooLong()])
    const context = new ContextManager({ settings: compactionSettings({ contextWindow: 100_000 }) })
    const { result } = await runQuery(baseParams(scriptedModel(server.url), { context, messages: longConversation() }))
    expect(result.reason).toBe('prompt_too_long')
    expect(result.message).toContain('even after compaction')
    expect(result.message).toContain('Nothing was lost')
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

  it('a Stop hook that throws lets the run complete, saying so', async () => {
    server.setScenario([textReply('done')])
    const { events, result } = await runQuery(
      baseParams(scriptedModel(server.url), {
        hooks: {
          onStop: async () => {
            throw new Error('hook exploded')
          },
        },
      }),
    )
    expect(result.reason).toBe('completed')
    expect(ofType(events, 'notice').map((event) => event.message)).toEqual(['The Stop hook failed: hook exploded'])
  })
})

/** An earlier round with a large result, then a new prompt: something a summary can shrink. */
function longConversation(): Message[] {
  return [
    { role: 'user', content: [{ type: 'text', text: 'Look at the logs.' }] },
    { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_logs', name: 'Echo', input: { value: 'logs' } }] },
    { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_logs', content: 'log line\n'.repeat(3_000) }] },
    { role: 'assistant', content: [{ type: 'text', text: 'The logs show a timeout.' }] },
    { role: 'user', content: [{ type: 'text', text: 'Fix it.' }] },
  ]
}
