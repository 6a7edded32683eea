import { describe, expect, it } from 'vitest'
import { textReply, toolUseReply } from '../../../test/model-server'
import { useModelServer } from '../../../test/model-server/vitest'
import { promptOf, resultOf, routeByPrompt, useAgentWorld } from '../../../test/support/agents'

// The Agent tool's `effort` (Claude Code 2.1.328's schema): offered to the model, and sent as the
// subagent's `output_config.effort`, over the session's own level; a fork runs at its parent's.
const server = useModelServer()
const world = useAgentWorld(() => server.url, { model: 'claude-sonnet-4-6', effort: 'low' })

describe('Agent effort', () => {
  it('is offered in the schema and reaches every request of the subagent', async () => {
    server.setScenario(
      [
        routeByPrompt({
          'Delegate it.': [toolUseReply('Agent', { description: 'Think hard', prompt: 'DEEP: work it out.', effort: 'max' }, { id: 'toolu_agent' }), textReply('Delegated.')],
          'DEEP:': [toolUseReply('Glob', { pattern: '*.md' }), textReply('Worked out.')],
        }),
      ],
      { loop: true },
    )
    const { sessionId } = await world.runtime.sessions.create(world.project)
    const result = await world.runtime.sessions.run(sessionId, 'Delegate it.')
    expect(resultOf(result.messages, 'toolu_agent')?.content).toBe('Worked out.')
    const agentTool = (server.requests[0]!.body['tools'] as Array<{ name: string; input_schema: { properties: Record<string, { enum?: string[] }> } }>).find((tool) => tool.name === 'Agent')!
    expect(agentTool.input_schema.properties['effort']?.enum).toEqual(['low', 'medium', 'high', 'xhigh', 'max'])
    const sub = server.requests.filter((request) => promptOf(request).startsWith('DEEP:'))
    expect(sub).toHaveLength(2)
    for (const request of sub) expect(request.body['output_config']).toEqual({ effort: 'max' })
    // The main agent keeps the session's level.
    expect(server.requests[0]!.body['output_config']).toEqual({ effort: 'low' })
  })

  it("leaves the session's level when the call names none, and refuses a level Claude Code does not have", async () => {
    server.setScenario(
      [
        routeByPrompt({
          'Delegate it.': [toolUseReply('Agent', { description: 'Bad level', prompt: 'NOPE: x', effort: 'extreme' }, { id: 'toolu_bad' }), toolUseReply('Agent', { description: 'Plain', prompt: 'PLAIN: x' }, { id: 'toolu_plain' }), textReply('Done.')],
          'PLAIN:': [textReply('Plain done.')],
        }),
      ],
      { loop: true },
    )
    const { sessionId } = await world.runtime.sessions.create(world.project)
    const result = await world.runtime.sessions.run(sessionId, 'Delegate it.')
    const bad = resultOf(result.messages, 'toolu_bad')!
    expect(bad.is_error).toBe(true)
    expect(JSON.stringify(bad.content)).toContain('effort')
    expect(server.requests.some((request) => promptOf(request).startsWith('NOPE:'))).toBe(false)
    const plain = server.requests.find((request) => promptOf(request).startsWith('PLAIN:'))!
    expect(plain.body['output_config']).toEqual({ effort: 'low' })
  })
})
