import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { textReply, toolUseReply } from '../../../test/model-server'
import { useModelServer } from '../../../test/model-server/vitest'
import { nextOn, promptOf, resultOf, routeByPrompt, useAgentWorld } from '../../../test/support/agents'

// Background agents, the foreground limit, and stopping: what the parent is told, and that a
// stopped or interrupted parent leaves nothing running.
const server = useModelServer()
const world = useAgentWorld(() => server.url, { agentForegroundLimitMs: 400 })

/** A text reply streamed slowly: `chunks` deltas `delayMs` apart. */
function slowReply(text: string, delayMs: number): ReturnType<typeof textReply> {
  return { ...textReply(text), chunkSize: Math.max(1, Math.ceil(text.length / 20)), delayMs }
}

describe('background agents', () => {
  it('start at once, return their id, and TaskOutput reads the final text', async () => {
    server.setScenario(
      [
        routeByPrompt({
          'Research in the background.': [
            toolUseReply('Agent', { description: 'Background research', prompt: 'Look around quietly.', run_in_background: true }, { id: 'toolu_agent' }),
            // Waits for the agent, then answers.
            (request) => {
              const id = /agent id (agent-[0-9a-f]+)/.exec(JSON.stringify(request.body))![1]!
              return toolUseReply('TaskOutput', { task_id: id, block: true, timeout: 10_000 }, { id: 'toolu_output' })
            },
            textReply('The agent reported.'),
          ],
          'Look around quietly.': [slowReply('Quiet findings: all good.', 20)],
        }),
      ],
      { loop: true },
    )
    const { sessionId } = await world.runtime.sessions.create(world.project)
    const result = await world.runtime.sessions.run(sessionId, 'Research in the background.')
    expect(result.reason).toBe('completed')
    const started = resultOf(result.messages, 'toolu_agent')
    expect(started?.content).toMatch(/running in the background: agent id agent-[0-9a-f]+/)
    expect(world.events.find((event) => event.type === 'agent_start')).toMatchObject({ background: true })
    expect(resultOf(result.messages, 'toolu_output')?.content).toMatch(/<status>completed<\/status>[\s\S]*Quiet findings: all good\./)
  })

  it('announce their end on the main agent\'s next request, as a task notification in a reminder', async () => {
    server.setScenario(
      [
        routeByPrompt({
          'Start and go on.': [toolUseReply('Agent', { description: 'Side errand', prompt: 'Run the errand.', run_in_background: true }, { id: 'toolu_agent' }), textReply('Started.')],
          'Run the errand.': [textReply('Errand done: 3 files found.')],
          'Anything new?': [textReply('Yes, the errand finished.')],
        }),
      ],
      { loop: true },
    )
    const { sessionId } = await world.runtime.sessions.create(world.project)
    const ended = nextOn(world, 'agent.event', (event) => event.type === 'agent_end' && event.status === 'completed')
    await world.runtime.sessions.run(sessionId, 'Start and go on.')
    const end = await ended
    await world.runtime.sessions.run(sessionId, 'Anything new?')
    const asked = server.requests.filter((request) => JSON.stringify(request.body['messages']).includes('Anything new?'))
    expect(asked).toHaveLength(1)
    const last = JSON.stringify((asked[0]!.body['messages'] as unknown[]).at(-1))
    expect(last).toContain('<system-reminder>')
    expect(last).toContain('<task-notification>')
    expect(last).toContain(end.agentId)
    expect(last).toContain('Errand done: 3 files found.')
  })

  it('go on past the end of the turn that started them, and TaskStop stops them with their commands', async () => {
    server.setScenario(
      [
        routeByPrompt({
          'Start a long job.': [
            toolUseReply('Agent', { description: 'Long job', prompt: 'Run the long job.', run_in_background: true }, { id: 'toolu_agent' }),
            textReply('Started.'),
          ],
          'Run the long job.': [toolUseReply('Bash', { command: 'sleep 30', run_in_background: true }, { id: 'toolu_sleep' }), slowReply('Still going…', 500)],
          'Stop it.': [
            (request) => toolUseReply('TaskStop', { task_id: /agent-[0-9a-f]{16}/.exec(JSON.stringify(request.body))![0] }, { id: 'toolu_stop' }),
            textReply('Stopped.'),
          ],
        }),
      ],
      { loop: true },
    )
    // The user allows the command (user settings), so the background agent runs it without asking.
    mkdirSync(world.home, { recursive: true })
    writeFileSync(join(world.home, 'settings.json'), JSON.stringify({ permissions: { allow: ['Bash(sleep *)'] } }))
    const { sessionId } = await world.runtime.sessions.create(world.project)
    const shellStarted = nextOn(world, 'agent.event', (event) => event.type === 'shell_start')
    const first = await world.runtime.sessions.run(sessionId, 'Start a long job.')
    expect(first.reason).toBe('completed')
    const shell = await shellStarted
    expect(shell).toMatchObject({ type: 'shell_start', command: 'sleep 30', parentToolUseId: 'toolu_agent' })
    // The turn ended; the agent did not.
    const agentId = shell.agentId
    expect(world.events.some((event) => event.type === 'agent_end' && event.agentId === agentId)).toBe(false)
    const ended = nextOn(world, 'agent.event', (event) => event.type === 'agent_end' && event.agentId === agentId)
    const shellEnded = nextOn(world, 'agent.event', (event) => event.type === 'shell_end' && event.agentId === agentId)
    const second = await world.runtime.sessions.run(sessionId, `Stop it. The id is ${agentId}.`)
    expect(resultOf(second.messages, 'toolu_stop')?.content).toMatch(/was stopped/)
    expect(await ended).toMatchObject({ status: 'stopped' })
    // Its background command ended with it (teardown in finally).
    expect(await shellEnded).toMatchObject({ status: 'killed' })
  })
})

describe('the foreground limit', () => {
  it('moves a foreground agent that runs too long to the background; the parent goes on', async () => {
    server.setScenario(
      [
        routeByPrompt({
          'Do the slow thing.': [toolUseReply('Agent', { description: 'Slow thing', prompt: 'Take your time.' }, { id: 'toolu_agent' }), textReply('It went on in the background.')],
          'Take your time.': [slowReply('Finally done, slowly.', 60)],
        }),
      ],
      { loop: true },
    )
    const { sessionId } = await world.runtime.sessions.create(world.project)
    const moved = nextOn(world, 'agent.event', (event) => event.type === 'agent_background')
    const ended = nextOn(world, 'agent.event', (event) => event.type === 'agent_end')
    const result = await world.runtime.sessions.run(sessionId, 'Do the slow thing.')
    expect(result.reason).toBe('completed')
    expect(resultOf(result.messages, 'toolu_agent')?.content).toMatch(/longer than the foreground limit and went on in the background: agent id agent-/)
    await moved
    // The parent's turn ended, and the agent finished on its own.
    expect(await ended).toMatchObject({ status: 'completed', result: 'Finally done, slowly.' })
  })
})

describe('stopping', () => {
  it('aborting the parent stops its foreground agents, and every tool_use still gets its result', async () => {
    // Two agents in one reply run side by side (Agent is concurrency-safe).
    server.setScenario(
      [
        routeByPrompt({
          'Start two.': [
            { reply: { content: [
              { type: 'tool_use', id: 'toolu_a', name: 'Agent', input: { description: 'First', prompt: 'First agent.' } },
              { type: 'tool_use', id: 'toolu_b', name: 'Agent', input: { description: 'Second', prompt: 'Second agent.' } },
            ] } },
          ],
          'First agent.': [slowReply('never finishes in time '.repeat(10), 200)],
          'Second agent.': [slowReply('never finishes either '.repeat(10), 200)],
        }),
      ],
      { loop: true },
    )
    // The file's 400 ms foreground limit is for the test above: here, an agent slow to start on a
    // busy machine would move to the background (cut from the parent's signal, by design) before the
    // abort, and go on past it. These two must still be in the foreground when the parent stops.
    await world.restart({ agentForegroundLimitMs: 60_000 })
    const { sessionId } = await world.runtime.sessions.create(world.project)
    const bothRunning = Promise.all([
      nextOn(world, 'agent.event', (event) => event.type === 'text_delta' && event.parentToolUseId === 'toolu_a'),
      nextOn(world, 'agent.event', (event) => event.type === 'text_delta' && event.parentToolUseId === 'toolu_b'),
    ])
    const turn = world.runtime.sessions.run(sessionId, 'Start two.')
    await bothRunning
    await world.runtime.sessions.abort(sessionId)
    const result = await turn
    expect(result.reason).toBe('aborted')
    // The turn ended, so both agents had ended: each Agent call's result waits for its agent's end.
    const ends = world.events.filter((event) => event.type === 'agent_end')
    expect(ends.map((event) => event.type === 'agent_end' && event.status)).toEqual(['stopped', 'stopped'])
    // …and before the parent's turn_end: nothing of theirs comes after the parent stopped.
    const turnEnd = world.events.findIndex((event) => event.type === 'turn_end' && event.agentId === 'main')
    expect(ends.every((end) => world.events.indexOf(end) < turnEnd)).toBe(true)
    expect(resultOf(result.messages, 'toolu_a')?.is_error).toBe(true)
    expect(resultOf(result.messages, 'toolu_b')?.is_error).toBe(true)
    // Nothing asked the model after the stop.
    expect(server.requests.filter((request) => promptOf(request) === 'Start two.')).toHaveLength(1)
  })
})
