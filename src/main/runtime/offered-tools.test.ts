import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { textReply } from '../../../test/model-server'
import { useModelServer } from '../../../test/model-server/vitest'
import { toolNamesOf, useAgentWorld } from '../../../test/support/agents'

// The session runtime every host uses, the real SDK, the scripted server: which of this issue's
// tools a session offers (AskUserQuestion only where someone answers; a bare deny rule removes a tool).
const server = useModelServer()
const world = useAgentWorld(() => server.url)

describe('the tools a session offers', () => {
  it('offers WebSearch and AskUserQuestion where a person answers', async () => {
    server.setScenario([textReply('hi')])
    const { sessionId } = await world.runtime.sessions.create(world.project)
    await world.runtime.sessions.run(sessionId, 'hello')
    expect(toolNamesOf(server.requests[0]!)).toEqual(expect.arrayContaining(['WebSearch', 'AskUserQuestion']))
  })

  it('does not offer AskUserQuestion to an unattended session (sous -p), as Claude Code', async () => {
    await world.restart({ answerer: 'unattended' })
    server.setScenario([textReply('hi')])
    const { sessionId } = await world.runtime.sessions.create(world.project)
    await world.runtime.sessions.run(sessionId, 'hello')
    expect(toolNamesOf(server.requests[0]!)).not.toContain('AskUserQuestion')
    expect(toolNamesOf(server.requests[0]!)).toContain('WebSearch')
  })

  it('removes WebSearch and AskUserQuestion when a settings file denies them outright', async () => {
    mkdirSync(join(world.project, '.claude'), { recursive: true })
    writeFileSync(join(world.project, '.claude', 'settings.json'), JSON.stringify({ permissions: { deny: ['WebSearch', 'AskUserQuestion'] } }))
    server.setScenario([textReply('hi')])
    const { sessionId } = await world.runtime.sessions.create(world.project)
    await world.runtime.sessions.run(sessionId, 'hello')
    expect(toolNamesOf(server.requests[0]!)).not.toContain('WebSearch')
    expect(toolNamesOf(server.requests[0]!)).not.toContain('AskUserQuestion')
  })
})
