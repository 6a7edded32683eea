import { getEventListeners } from 'node:events'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { textReply, type ReplyBlock } from '../../../test/model-server'
import { useModelServer } from '../../../test/model-server/vitest'
import { resultOf, routeByPrompt, useAgentWorld } from '../../../test/support/agents'
import { makeTestWorld } from '../../../test/support/tools'
import { fanOutController } from '../base/fan-out-signal'
import { defineTool } from '../tools/define-tool'
import { runToolCall } from '../tools/run-tool'
import { AgentRecord, type AgentMake } from './agent-record'

// A parent that starts many subagents in one reply: legitimate fan-out, which must neither warn of
// a listener leak nor leave one behind (each child's abort is chained to the parent's turn).
const server = useModelServer()
const world = useAgentWorld(() => server.url)
const CHILDREN = 60
const tools = makeTestWorld()

/** Collects the process's MaxListenersExceededWarnings while `run` runs (they are emitted a tick later). */
async function leakWarnings(run: () => Promise<void>): Promise<string[]> {
  const warnings: Error[] = []
  const onWarning = (warning: Error) => void warnings.push(warning)
  process.on('warning', onWarning)
  try {
    await run()
    await new Promise((resolve) => setImmediate(resolve))
  } finally {
    process.off('warning', onWarning)
  }
  return warnings.filter((warning) => warning.name === 'MaxListenersExceededWarning').map((warning) => warning.message)
}

/** A tool call that runs until the test lets it go. */
const waiting = defineTool({
  name: 'Wait',
  label: 'Wait',
  description: 'Waits for the test.',
  input: z.strictObject({}),
  summarize: () => 'waiting',
  execute: async (_input, ctx) => {
    await release
    return { content: ctx.toolUseId }
  },
})
let letGo: () => void = () => {}
const release = new Promise<void>((resolve) => (letGo = resolve))

describe('a parent starting many subagents at once', () => {
  it('prints no MaxListenersExceededWarning, and every child finishes', async () => {
    const calls: ReplyBlock[] = Array.from({ length: CHILDREN }, (_, index) => ({
      type: 'tool_use',
      id: `toolu_child_${index}`,
      name: 'Agent',
      input: { description: `Survey ${index + 1}`, prompt: 'Survey one area.', subagent_type: 'Explore' },
    }))
    server.setScenario(
      [
        routeByPrompt({
          'Survey everything.': [{ reply: { content: calls } }, textReply('All surveyed.')],
          'Survey one area.': Array.from({ length: CHILDREN }, () => textReply('Nothing to report.')),
        }),
      ],
      { loop: true },
    )
    const warnings = await leakWarnings(async () => {
      const { sessionId } = await world.runtime.sessions.create(world.project)
      const result = await world.runtime.sessions.run(sessionId, 'Survey everything.')
      expect(result.reason).toBe('completed')
      for (let index = 0; index < CHILDREN; index++) expect(resultOf(result.messages, `toolu_child_${index}`)?.content).toBe('Nothing to report.')
    })
    expect(warnings).toEqual([])
  })

  it('leaves no abort listener on the reply’s signal once the calls and the children’s runs end', async () => {
    const reply = fanOutController()
    const children = Array.from({ length: CHILDREN }, (_, index) => new AgentRecord({ id: `agent-${index}` } as AgentMake, false))
    let calls: Array<Promise<unknown>> = []
    const warnings = await leakWarnings(async () => {
      for (const child of children) child.beginRun(reply.signal)
      calls = Array.from({ length: CHILDREN }, (_, index) => runToolCall(waiting, {}, tools.ctx({ signal: reply.signal, toolUseId: `toolu_${index}` })))
    })
    expect(warnings).toEqual([])
    expect(getEventListeners(reply.signal, 'abort').length).toBeGreaterThanOrEqual(2 * CHILDREN)
    letGo()
    await Promise.all(calls)
    for (const child of children) child.finish({ status: 'completed', resultText: '', messages: [], usage: { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 }, costUsd: 0, turns: 1, durationMs: 0 })
    expect(getEventListeners(reply.signal, 'abort')).toEqual([])
  })
})
