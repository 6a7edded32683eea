import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { textReply, toolUseReply, type JsonStep } from '../../../test/model-server'
import { useModelServer } from '../../../test/model-server/vitest'
import { nextOn, routeByPrompt, useAgentWorld, type AgentWorld } from '../../../test/support/agents'
import type { AgentEvent } from '../../shared/protocol/agent-event'

// The budget guard and the loop brake in an app session (someone can answer): the pause is an
// event the card shows, answered through the session manager. Real SDK, scripted server, real tools.
// Nothing is cached (the prefix never reaches the minimum), so a task costs the same every time.
const server = useModelServer({ minCacheTokens: 1_000_000_000 })
const world = useAgentWorld(() => server.url)

type Of<T extends AgentEvent['type']> = Extract<AgentEvent, { type: T }>
const ofType = <T extends AgentEvent['type']>(world: AgentWorld, type: T): Array<Of<T>> => world.events.filter((event): event is Of<T> => event.type === type)

function readingTask(count: number): JsonStep[] {
  const steps: JsonStep[] = []
  for (let index = 0; index < count; index++) {
    const file = join(world.project, `notes-${index}.txt`)
    writeFileSync(file, 'notes worth reading, line after line\n'.repeat(200))
    steps.push(toolUseReply('Read', { file_path: file }, { text: `Reading part ${index}.` }))
  }
  return [...steps, textReply('Read them all.')]
}

/** What the reading task costs uncapped, in a session of its own. */
async function uncappedCost(count: number): Promise<number> {
  server.setScenario(readingTask(count))
  const { sessionId } = await world.runtime.sessions.create(world.project)
  const result = await world.runtime.sessions.run(sessionId, 'Read the notes')
  expect(result.reason).toBe('completed')
  server.requests.length = 0
  world.events.length = 0
  return result.costUsd
}

describe('the budget guard in the app', () => {
  it('pauses before the request that would cross the cap; raising the cap goes on', async () => {
    const total = await uncappedCost(6)
    const cap = total / 2
    await world.restart({ budget: { sessionUsd: cap } })
    server.setScenario(readingTask(6))
    const { sessionId } = await world.runtime.sessions.create(world.project)
    const paused = nextOn(world, 'agent.event', (event) => event.type === 'session_pause')
    const done = world.runtime.sessions.run(sessionId, 'Read the notes')
    const pause = (await paused) as Of<'session_pause'>
    expect(pause).toMatchObject({ reason: 'budget', choices: ['raise', 'compact', 'stop'] })
    expect(pause.message).toContain('session spending cap')
    // At the pause, spend is at or below the cap; the status said so against the cap.
    const status = ofType(world, 'budget_status').at(-1)!
    expect(status.spentUsd).toBeLessThanOrEqual(cap)
    expect(status.lines[0]).toMatchObject({ key: 'sessionUsd', cap })
    expect(status.forecastUsd).toBeGreaterThan(0)
    const sentAtPause = server.requests.length
    await world.runtime.sessions.resumePause(sessionId, pause.pauseId, 'raise', total * 3)
    const result = await done
    expect(result.reason).toBe('completed')
    expect(server.requests.length).toBeGreaterThan(sentAtPause)
    expect(ofType(world, 'session_resume')).toMatchObject([{ pauseId: pause.pauseId, choice: 'raise' }])
    expect(ofType(world, 'session_pause')).toHaveLength(1)
  })

  it('stop ends the turn with budget_exceeded; an unknown pause is refused', async () => {
    const total = await uncappedCost(6)
    await world.restart({ budget: { sessionUsd: total / 3 } })
    server.setScenario(readingTask(6))
    const { sessionId } = await world.runtime.sessions.create(world.project)
    const paused = nextOn(world, 'agent.event', (event) => event.type === 'session_pause')
    const done = world.runtime.sessions.run(sessionId, 'Read the notes')
    const pause = (await paused) as Of<'session_pause'>
    await expect(world.runtime.sessions.resumePause(sessionId, 'pause-none', 'stop')).rejects.toMatchObject({ code: 'CONFLICT' })
    await world.runtime.sessions.resumePause(sessionId, pause.pauseId, 'stop')
    const result = await done
    expect(result.reason).toBe('budget_exceeded')
    expect(result.costUsd).toBeLessThanOrEqual(total / 3)
    expect(ofType(world, 'turn_end').at(-1)).toMatchObject({ reason: 'budget_exceeded' })
    server.setScenario([])
  })

  it("counts a subagent's requests toward the session's spend", async () => {
    server.setScenario([
      routeByPrompt({
        'Delegate it.': [toolUseReply('Agent', { description: 'Read the readme', prompt: 'Read README.md and report.', subagent_type: 'general-purpose' }, { id: 'toolu_agent' }), textReply('Done.')],
        'Read README.md and report.': [toolUseReply('Read', { file_path: join(world.project, 'README.md') }), textReply('It is a readme.')],
      }),
    ], { loop: true })
    const { sessionId } = await world.runtime.sessions.create(world.project)
    const result = await world.runtime.sessions.run(sessionId, 'Delegate it.')
    expect(result.reason).toBe('completed')
    const all = ofType(world, 'usage').reduce((sum, event) => sum + (event.requestCostUsd ?? 0), 0)
    const main = ofType(world, 'usage').filter((event) => event.agentId === 'main').reduce((sum, event) => sum + (event.requestCostUsd ?? 0), 0)
    expect(all).toBeGreaterThan(main)
    expect(ofType(world, 'budget_status').at(-1)!.spentUsd).toBeCloseTo(all, 10)
  })
})

describe('the loop brake in the app', () => {
  it('pauses on the fifth identical call with the reason; continue goes on', async () => {
    const file = join(world.project, 'README.md')
    server.setScenario([...Array.from({ length: 5 }, () => toolUseReply('Read', { file_path: file })), textReply('Finally done.')])
    const { sessionId } = await world.runtime.sessions.create(world.project)
    const paused = nextOn(world, 'agent.event', (event) => event.type === 'session_pause')
    const done = world.runtime.sessions.run(sessionId, 'Read it')
    const pause = (await paused) as Of<'session_pause'>
    expect(pause).toMatchObject({ reason: 'loop', choices: ['continue', 'stop'] })
    expect(pause.message).toContain('same Read call with the same input 5 times in a row')
    expect(server.requests).toHaveLength(5)
    await world.runtime.sessions.resumePause(sessionId, pause.pauseId, 'continue')
    expect((await done).resultText).toBe('Finally done.')
  })
})
