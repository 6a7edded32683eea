import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { textReply, toolUseReply } from '../../../test/model-server'
import { useModelServer } from '../../../test/model-server/vitest'
import { promptOf, resultOf, routeByPrompt, systemOf, toolNamesOf, useAgentWorld } from '../../../test/support/agents'
import { loadAgentCatalog } from './agent-files'

// The extra deny layer for custom agents: an agent file that lists tools acting on the main
// conversation (team, schedules, plan mode…) runs without them, and both it and the main agent
// are told; a built-in type is unaffected.
const server = useModelServer()
const world = useAgentWorld(() => server.url)

const GREEDY = `---
name: greedy
description: Wants every tool.
tools: Read, TeamCreate, CronCreate, ExitPlanMode, SendMessage, Agent
---
You are GREEDY-PROMPT.
`

describe('custom agents’ extra deny layer', () => {
  it('withholds the team, cron and plan-mode tools its file lists, tells the subagent, and the Agent tool says so', async () => {
    mkdirSync(join(world.userHome, '.claude', 'agents'), { recursive: true })
    writeFileSync(join(world.userHome, '.claude', 'agents', 'greedy.md'), GREEDY)
    const catalog = await loadAgentCatalog({ projectRoot: world.project, userHome: world.userHome, projectTrusted: true })
    expect(catalog.problems).toEqual([
      expect.objectContaining({ level: 'warning', message: expect.stringContaining('"tools": TeamCreate, CronCreate, ExitPlanMode, SendMessage are not available to custom agents') }),
    ])
    server.setScenario(
      [
        routeByPrompt({
          'Use greedy.': [toolUseReply('Agent', { description: 'Greedy', prompt: 'GREEDY: make a team.', subagent_type: 'greedy' }, { id: 'toolu_agent' }), textReply('Done.')],
          'GREEDY:': [textReply('I cannot make a team.')],
        }),
      ],
      { loop: true },
    )
    const { sessionId } = await world.runtime.sessions.create(world.project)
    const result = await world.runtime.sessions.run(sessionId, 'Use greedy.')
    expect(resultOf(result.messages, 'toolu_agent')?.content).toBe('I cannot make a team.')
    const main = server.requests.find((request) => promptOf(request) === 'Use greedy.')!
    // The main agent has the team and cron tools itself; the type's line offers only what it gets.
    expect(toolNamesOf(main)).toEqual(expect.arrayContaining(['TeamCreate', 'CronCreate']))
    const agentTool = (main.body['tools'] as Array<{ name: string; description: string }>).find((tool) => tool.name === 'Agent')!
    expect(agentTool.description).toContain('- greedy: Wants every tool. (Tools: Read, Agent)')
    const sub = server.requests.find((request) => promptOf(request).startsWith('GREEDY:'))!
    expect(toolNamesOf(sub).sort()).toEqual(['Agent', 'Read'])
    expect(systemOf(sub)).toContain('Your agent file lists TeamCreate, CronCreate, ExitPlanMode, SendMessage, but custom agents cannot use them')
  })
})
