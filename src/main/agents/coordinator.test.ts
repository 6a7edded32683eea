import { describe, expect, it } from 'vitest'
import { textReply, toolUseReply } from '../../../test/model-server'
import { useModelServer } from '../../../test/model-server/vitest'
import { nextOn, promptOf, routeByPrompt, systemOf, toolNamesOf, useAgentWorld } from '../../../test/support/agents'
import type { Message } from '../services/model/types'

// Coordinator mode through the session runtime: the main agent only directs workers (Agent,
// SendMessage, TaskStop), its workers run in the background, and each worker's result arrives as a
// user message that starts a turn of its own.
const server = useModelServer()
const world = useAgentWorld(() => server.url, { coordinator: true })

describe('coordinator mode', () => {
  it('gives the main agent only Agent, SendMessage, TaskStop, the team tools and StructuredOutput; a worker reports back as a user message that starts a turn', async () => {
    server.setScenario(
      [
        routeByPrompt({
          'Coordinate the fix.': [toolUseReply('Agent', { description: 'Find the bug', prompt: 'Find the bug in README.md.' }, { id: 'toolu_worker' }), textReply('A worker is on it.')],
          'Find the bug in README.md.': [textReply('The heading says Readme; it should say Sous.')],
          '<task-notification>': [textReply('The worker found it: the heading.')],
        }),
      ],
      { loop: true },
    )
    const { sessionId } = await world.runtime.sessions.create(world.project)
    const reported = nextOn(world, 'agent.event', (event) => event.type === 'turn_end' && event.agentId === 'main' && server.requests.some((request) => JSON.stringify(request.body['messages']).includes('<task-notification>')))
    const first = await world.runtime.sessions.run(sessionId, 'Coordinate the fix.')
    expect(first.reason).toBe('completed')
    await reported
    const main = server.requests.find((request) => promptOf(request) === 'Coordinate the fix.')!
    expect(toolNamesOf(main).sort()).toEqual(['Agent', 'SendMessage', 'StructuredOutput', 'TaskStop', 'TeamCreate', 'TeamDelete'])
    expect(systemOf(main)).toContain('<task-notification>')
    // Workers get real tools (chosen from the session's, not from the coordinator's three).
    const worker = server.requests.find((request) => promptOf(request) === 'Find the bug in README.md.')!
    expect(toolNamesOf(worker)).toEqual(expect.arrayContaining(['Bash', 'Read', 'Edit']))
    expect(toolNamesOf(worker)).not.toContain('Agent')
    expect(toolNamesOf(worker)).not.toContain('StructuredOutput')
    // The worker ran in the background (the main turn did not wait for it).
    expect(world.events.find((event) => event.type === 'agent_start')).toMatchObject({ background: true })
    // Its result came back as a user message of its own, not as a reminder on another message.
    const report = server.requests.find((request) => {
      const last = (request.body['messages'] as Message[]).at(-1)!
      return last.role === 'user' && JSON.stringify(last).includes('<task-notification>')
    })!
    expect(JSON.stringify(report.body['messages'])).toContain('The heading says Readme; it should say Sous.')
    const history = await world.runtime.sessions.history(sessionId)
    const prompts = history.events.filter((event) => event.type === 'turn_start').map((event) => (event.type === 'turn_start' ? event.prompt : ''))
    expect(prompts).toHaveLength(2)
    expect(prompts[1]).toContain('<task-notification>')
  })
})
