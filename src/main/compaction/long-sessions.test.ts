import { describe, expect, it } from 'vitest'
import { textReply, toolUseReply } from '../../../test/model-server'
import { useModelServer } from '../../../test/model-server/vitest'
import { messagesOf } from '../../../test/support/compaction'
import { baseParams, expectPaired, ofType, runQuery, scriptedModel, testTool } from '../../../test/support/engine'
import type { Message } from '../services/model/types'
import { ContextManager } from './manager'
import { compactionSettings } from './settings'

// Long sessions far below the window, through the real loop and SDK against the scripted server
// (issue 23): below half the window no layer drops or rewrites an earlier message, whatever the
// message count; where history is cut, the model is told how to get it back.
const WINDOW = 200_000
const server = useModelServer({ contextWindow: WINDOW })

/** A small tool: a few hundred characters a step; the first step's result holds the fact. */
const step = testTool('Step', { safe: true, run: async (input) => ({ content: input.value === '0' ? 'FIRST-FACT: the deploy key is kept in vault path ops/deploy-7731.' : `step ${input.value} done: ${'ok '.repeat(40)}` }) })

/** Messages as sent, without the breakpoints the loop places. */
const plain = (messages: readonly Message[]) => JSON.parse(JSON.stringify(messages).replace(/,"cache_control":\{"type":"ephemeral"\}/g, '')) as Message[]

describe('long sessions below the pressure mark', () => {
  it('a 450-step task keeps its first fact: the first tool result is still in the last request', async () => {
    const steps = 450
    server.setScenario([...Array.from({ length: steps }, (_, index) => toolUseReply('Step', { value: String(index) })), textReply('All steps done.')])
    const context = new ContextManager({ settings: compactionSettings({ contextWindow: WINDOW }) })
    const { events, result } = await runQuery(baseParams(scriptedModel(server.url), { tools: [step], context, maxTurns: steps + 5 }))
    expect(result.reason).toBe('completed')
    expect(server.failures).toEqual([])
    const last = messagesOf(server.requests.at(-1)!)
    expect(last.length).toBe(2 * steps + 1)
    expect(JSON.stringify(last[2])).toContain('FIRST-FACT: the deploy key is kept in vault path ops/deploy-7731.')
    // Nothing was snipped, cleared or collapsed: the session was never under pressure.
    expect(ofType(events, 'compaction')).toEqual([])
    expectPaired(last)
  }, 120_000)

  it('a 400-message conversation far below the window sends its first messages unchanged', async () => {
    const history: Message[] = [{ role: 'user', content: [{ type: 'text', text: 'The task: keep going.' }] }]
    for (let index = 0; index < 210; index++) {
      history.push({ role: 'assistant', content: [{ type: 'tool_use', id: `toolu_${index}`, name: 'Step', input: { value: String(index + 1) } }] })
      history.push({ role: 'user', content: [{ type: 'tool_result', tool_use_id: `toolu_${index}`, content: `step ${index + 1} done` }] })
    }
    expect(history.length).toBeGreaterThan(400)
    server.setScenario([toolUseReply('Step', { value: 'next' }), textReply('Done.')])
    const context = new ContextManager({ settings: compactionSettings({ contextWindow: WINDOW }) })
    const { events, result } = await runQuery(baseParams(scriptedModel(server.url), { tools: [step], context, messages: history }))
    expect(result.reason).toBe('completed')
    for (const request of server.requests) expect(plain(messagesOf(request)).slice(0, history.length)).toEqual(history)
    expect(ofType(events, 'compaction')).toEqual([])
  })

  it('past the pressure mark snip may cut, and its marker says where the whole history is', async () => {
    server.setScenario([...Array.from({ length: 12 }, (_, index) => toolUseReply('Step', { value: String(index) })), textReply('ok')])
    const transcriptPath = '/tmp/sous-test/session.jsonl'
    const context = new ContextManager({ settings: compactionSettings({ contextWindow: WINDOW, overrides: { pressureAt: 500, snipAbove: 16, snipTo: 8 } }), transcriptPath })
    const { events, result } = await runQuery(baseParams(scriptedModel(server.url), { tools: [step], context }))
    expect(result.reason).toBe('completed')
    expect(ofType(events, 'compaction').some((event) => event.layer === 'snip')).toBe(true)
    const head = JSON.stringify(messagesOf(server.requests.at(-1)!)[0])
    expect(head).toContain('[Snipped:')
    expect(head).toContain(`session transcript, ${transcriptPath}`)
  })
})
