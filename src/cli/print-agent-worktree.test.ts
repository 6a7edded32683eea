import { existsSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it, vi } from 'vitest'
import { textReply, toolUseReply } from '../../test/model-server'
import { useModelServer } from '../../test/model-server/vitest'
import { useHeadless } from '../../test/support/headless'
import { routeByPrompt } from '../../test/support/agents'
import { gitIn, makeRepository } from '../../test/support/git-repo'
import type { Message } from '../main/services/model/types'

// Agent calls with `isolation: "worktree"` through `sous -p`: the real SDK against the scripted
// server, a real git repository, the subagent's Bash on a real PTY.
// Several real git runs and PTY commands per test, on a machine shared with other work.
vi.setConfig({ testTimeout: 90_000 })
const server = useModelServer()
const headless = useHeadless(server, { inheritPath: true })

/** The Agent call's result as the main agent's last request carried it. */
function agentResult(): string {
  const messages = server.requests.at(-1)!.body['messages'] as Message[]
  return JSON.stringify(messages.at(-1)!.content)
}

describe('Agent with isolation: "worktree"', () => {
  it('gets its own worktree: its edit lands there, not in the base, and the result names the branch', async () => {
    makeRepository(headless.project, { 'shared.txt': 'base\n' })
    server.setScenario([
      routeByPrompt({
        'Isolate this.': [toolUseReply('Agent', { description: 'Edit apart', prompt: 'EDIT-IN-WORKTREE', isolation: 'worktree' }, { id: 'toolu_iso' }), textReply('The helper worked apart.')],
        'EDIT-IN-WORKTREE': [toolUseReply('Bash', { command: 'echo agent > shared.txt && git rev-parse --show-toplevel' }), textReply('Edited shared.txt.')],
      }),
    ], { loop: true })
    const run = await headless.sous(['--permission-mode', 'bypassPermissions', 'Isolate this.'])
    expect(run.code).toBe(0)
    const result = agentResult()
    const branch = /worktreeBranch: (worktree-agent-[0-9a-f]+)/.exec(result)?.[1]
    expect(branch).toBeDefined()
    const path = /worktreePath: ([^\\"]+)/.exec(result)![1]!
    expect(path).toBe(join(headless.project, '.claude', 'worktrees', branch!.replace(/^worktree-/, '')))
    expect(await readFile(join(path, 'shared.txt'), 'utf8')).toBe('agent\n')
    expect(await readFile(join(headless.project, 'shared.txt'), 'utf8')).toBe('base\n')
    expect(gitIn(headless.project, 'worktree', 'list', '--porcelain')).toContain(`branch refs/heads/${branch}`)
    // The agent was told where it works (Claude Code's words).
    const agentRequest = server.requests.find((request) => JSON.stringify(request.body['messages']).includes('EDIT-IN-WORKTREE'))!
    expect(JSON.stringify(agentRequest.body['messages'])).toContain(`You are running in an isolated git worktree at \`${path}\``)
  })

  it('from a session that itself runs in a worktree (-w), the agent\'s worktree goes under the main checkout, not inside that worktree', async () => {
    makeRepository(headless.project, { 'shared.txt': 'base\n' })
    server.setScenario([
      routeByPrompt({
        'Isolate from a worktree.': [toolUseReply('Agent', { description: 'Edit apart', prompt: 'EDIT-FROM-WORKTREE', isolation: 'worktree' }), textReply('Done.')],
        'EDIT-FROM-WORKTREE': [toolUseReply('Bash', { command: 'echo agent > shared.txt' }), textReply('Edited shared.txt.')],
      }),
    ], { loop: true })
    const run = await headless.sous(['--worktree', 'outer', '--permission-mode', 'bypassPermissions', 'Isolate from a worktree.'])
    expect(run.code).toBe(0)
    const outer = join(headless.project, '.claude', 'worktrees', 'outer')
    const result = agentResult()
    const branch = /worktreeBranch: (worktree-agent-[0-9a-f]+)/.exec(result)?.[1]
    expect(branch).toBeDefined()
    const path = /worktreePath: ([^\\"]+)/.exec(result)![1]!
    expect(path).toBe(join(headless.project, '.claude', 'worktrees', branch!.replace(/^worktree-/, '')))
    expect(existsSync(join(outer, '.claude', 'worktrees'))).toBe(false)
    expect(await readFile(join(path, 'shared.txt'), 'utf8')).toBe('agent\n')
    // Neither the session's worktree nor the base took the agent's edit.
    expect(await readFile(join(outer, 'shared.txt'), 'utf8')).toBe('base\n')
    expect(await readFile(join(headless.project, 'shared.txt'), 'utf8')).toBe('base\n')
    const listed = gitIn(headless.project, 'worktree', 'list', '--porcelain')
    expect(listed).toContain('branch refs/heads/worktree-outer')
    expect(listed).toContain(`branch refs/heads/${branch}`)
  })

  it('removes the worktree again when the agent changed nothing, and the result names none', async () => {
    makeRepository(headless.project, { 'shared.txt': 'base\n' })
    server.setScenario([
      routeByPrompt({
        'Look only.': [toolUseReply('Agent', { description: 'Look', prompt: 'LOOK-IN-WORKTREE', isolation: 'worktree' }), textReply('Looked.')],
        'LOOK-IN-WORKTREE': [textReply('Nothing to change.')],
      }),
    ], { loop: true })
    const run = await headless.sous(['--permission-mode', 'bypassPermissions', 'Look only.'])
    expect(run.code).toBe(0)
    expect(agentResult()).not.toContain('worktreePath')
    expect(gitIn(headless.project, 'worktree', 'list').trim().split('\n')).toHaveLength(1)
    expect(gitIn(headless.project, 'branch', '--list', 'worktree-agent-*')).toBe('')
  })

  it('outside a git repository the call fails with Claude Code\'s words and nothing is made', async () => {
    server.setScenario([
      routeByPrompt({ 'No repo here.': [toolUseReply('Agent', { description: 'x', prompt: 'NEVER-RUNS', isolation: 'worktree' }), textReply('It could not start.')] }),
    ], { loop: true })
    const run = await headless.sous(['--permission-mode', 'bypassPermissions', 'No repo here.'])
    expect(run.code).toBe(0)
    expect(agentResult()).toContain('Cannot create agent worktree: not in a git repository.')
    expect(existsSync(join(headless.project, '.claude'))).toBe(false)
  })
})
