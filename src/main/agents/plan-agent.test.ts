import { execFileSync } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { textReply, toolUseReply } from '../../../test/model-server'
import { useModelServer } from '../../../test/model-server/vitest'
import { promptOf, routeByPrompt, systemOf, useAgentWorld } from '../../../test/support/agents'

// The Plan agent, like Explore, starts lean (Claude Code leaves CLAUDE.md and git status out of
// both): read from what its requests carried to the scripted server, in a real git repository.
const server = useModelServer()
const world = useAgentWorld(() => server.url)

describe('the Plan agent', () => {
  it('starts without CLAUDE.md and git status, while the main agent has both', async () => {
    const git = (...args: string[]) => execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { cwd: world.project })
    git('init', '-q', '-b', 'plan-branch')
    git('add', 'README.md')
    git('commit', '-qm', 'first')
    writeFileSync(join(world.project, 'CLAUDE.md'), 'Project rule: MARKER-PLAN-CLAUDE-MD\n')
    server.setScenario(
      [
        routeByPrompt({
          'Plan the change.': [toolUseReply('Agent', { description: 'Plan it', prompt: 'Design the change to README.md.', subagent_type: 'Plan' }, { id: 'toolu_plan' }), textReply('Planned.')],
          'Design the change to README.md.': [textReply('1. Edit README.md.')],
        }),
      ],
      { loop: true },
    )
    const { sessionId } = await world.runtime.sessions.create(world.project)
    const result = await world.runtime.sessions.run(sessionId, 'Plan the change.')
    expect(result.reason).toBe('completed')
    const plan = server.requests.find((request) => promptOf(request) === 'Design the change to README.md.')!
    const main = server.requests.find((request) => promptOf(request) === 'Plan the change.')!
    expect(systemOf(main)).toContain('MARKER-PLAN-CLAUDE-MD')
    expect(systemOf(main)).toContain('Current branch: plan-branch')
    expect(systemOf(plan)).not.toContain('MARKER-PLAN-CLAUDE-MD')
    expect(systemOf(plan)).not.toContain('Current branch')
  })
})
