import { describe, expect, it } from 'vitest'
import { textReply } from '../../../test/model-server'
import { useModelServer } from '../../../test/model-server/vitest'
import { useAgentWorld } from '../../../test/support/agents'

// The Agent tool's guidance as the design writes it, read from the tools a real request carried
// to the scripted server.
const server = useModelServer()
const world = useAgentWorld(() => server.url)

describe("the Agent tool's guidance", () => {
  it('says to brief the agent like a colleague who just walked in, that terse prompts get shallow results, never to delegate understanding, and not for one or two files', async () => {
    server.setScenario([textReply('Hello.')])
    const { sessionId } = await world.runtime.sessions.create(world.project)
    expect((await world.runtime.sessions.run(sessionId, 'Hi.')).reason).toBe('completed')
    const tools = server.requests[0]!.body['tools'] as Array<{ name: string; description: string }>
    const agent = tools.find((tool) => tool.name === 'Agent')!.description
    expect(agent).toContain('Brief the agent like a capable colleague who just walked into the room')
    expect(agent).toContain('Terse prompts get shallow, generic results.')
    expect(agent).toContain('Never delegate understanding.')
    expect(agent).toContain('give the paths, the lines and the exact change you want')
    expect(agent).toContain('work on one or two files you already know: do it yourself')
  })
})
