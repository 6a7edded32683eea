import { describe, expect, it } from 'vitest'
import { textReply } from '../../../test/model-server'
import { useModelServer } from '../../../test/model-server/vitest'
import { useAgentWorld } from '../../../test/support/agents'
import { isSummaryRequest, summaryReply, withSummaries } from '../../../test/support/compaction'
import type { AppError } from '../../shared/ipc/result'

// `/model`: a session's next requests name the model chosen (aliases resolved), through the real SDK.
const server = useModelServer()

// The runtime as `sous -p` runs it (headless: nobody to ask).
const world = useAgentWorld(() => server.url, { answerer: 'unattended' })

describe('switching a session\'s model', () => {
  it('names the chosen model in the next requests, and goes back to the default when asked', async () => {
    const project = world.project
    server.setScenario([textReply('One.'), textReply('Two.'), textReply('Three.')])
    const { sessionId } = await world.runtime.sessions.create(project)
    await world.runtime.sessions.run(sessionId, 'first')
    expect(await world.runtime.sessions.setModel(sessionId, 'opus')).toEqual({ model: 'claude-opus-4-6' })
    await world.runtime.sessions.run(sessionId, 'second')
    expect(await world.runtime.sessions.setModel(sessionId, undefined)).toEqual({ model: 'claude-sonnet-4-6' })
    await world.runtime.sessions.run(sessionId, 'third')
    expect(server.requests.map((request) => request.body['model'])).toEqual(['claude-sonnet-4-6', 'claude-opus-4-6', 'claude-sonnet-4-6'])
    const unknown = await world.runtime.sessions.setModel('nope', 'opus').catch((error: unknown) => error)
    expect((unknown as AppError).code).toBe('NOT_FOUND')
  })

  it('compaction and the context view follow the chosen model: a smaller window compacts earlier', async () => {
    const project = world.project
    const { sessionId } = await world.runtime.sessions.create(project)
    // 180,000 tokens (as the API counts them): well under a 1M window's thresholds, past a 200k
    // window's automatic compaction (167,000).
    const big = { usage: { input_tokens: 180_000 } }
    const script = withSummaries([textReply('Read it all.', big), textReply('Still here.', big), textReply('Summarized and on.')], [summaryReply('Everything was read.')])
    server.setScenario(script.steps, { loop: true })
    expect(await world.runtime.sessions.setModel(sessionId, 'claude-sonnet-4-6[1m]')).toEqual({ model: 'claude-sonnet-4-6[1m]' })
    await world.runtime.sessions.run(sessionId, 'Read everything')
    await world.runtime.sessions.run(sessionId, 'Go on')
    expect(server.requests.filter(isSummaryRequest)).toEqual([])
    expect(await world.runtime.sessions.inspectContext(sessionId)).toMatchObject({ model: 'claude-sonnet-4-6[1m]', window: 1_000_000, thresholds: { autoCompact: 1_000_000 - 20_000 - 13_000 } })

    await world.runtime.sessions.setModel(sessionId, undefined)
    expect(await world.runtime.sessions.inspectContext(sessionId)).toMatchObject({ model: 'claude-sonnet-4-6', window: 200_000, thresholds: { autoCompact: 167_000 } })
    await world.runtime.sessions.run(sessionId, 'And now?')
    const latest = server.requests.slice(-2)
    // The summary goes to the model the session uses, so it shares that model's cache.
    expect(latest.map((request) => [isSummaryRequest(request), request.body['model']])).toEqual([
      [true, 'claude-sonnet-4-6'],
      [false, 'claude-sonnet-4-6'],
    ])
    expect(JSON.stringify(latest[1]!.body['messages'])).toContain('Everything was read.')
  })
})
