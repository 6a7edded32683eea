import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { textReply } from '../../../test/model-server'
import { useModelServer } from '../../../test/model-server/vitest'
import { useAgentWorld } from '../../../test/support/agents'

// The Agent tool's guidance and the static prompt's sections as the design writes them, read from
// what real requests carried to the scripted server.
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

describe('the static system prompt', () => {
  it('has the security-testing policy and the git safety protocol, in the same bytes for every project, so it is read from the cache', async () => {
    server.setScenario([textReply('One.'), textReply('Two.')])
    const other = join(world.base, 'other-project')
    mkdirSync(other)
    for (const project of [world.project, other]) {
      const { sessionId } = await world.runtime.sessions.create(project)
      expect((await world.runtime.sessions.run(sessionId, 'Hi.')).reason).toBe('completed')
    }
    const [first, second] = server.requests.map((request) => request.body['system'] as Array<{ text: string }>)
    expect(first![0]!.text).toContain('# Security testing\nAssist with authorized security testing, defensive security, CTF challenges, and educational contexts.')
    expect(first![0]!.text).toContain('# Git safety protocol\n- Never update the git config.')
    expect(first![0]!.text).toMatch(/^You are Sous, an AI coding agent/)
    expect(second![0]!.text).toBe(first![0]!.text)
    // The second project's first request reads the static block from the cache the first wrote.
    expect(server.requests[1]!.simulatedUsage.cache_read_input_tokens).toBeGreaterThan(0)
  })
})
