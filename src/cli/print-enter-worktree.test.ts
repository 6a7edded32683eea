import { existsSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it, vi } from 'vitest'
import { textReply, toolUseReply } from '../../test/model-server'
import { useModelServer } from '../../test/model-server/vitest'
import { useHeadless } from '../../test/support/headless'
import { gitIn, makeRepository } from '../../test/support/git-repo'
import type { Message, ToolResultBlock } from '../main/services/model/types'

// EnterWorktree / ExitWorktree through `sous -p`: the real SDK against the scripted server, a
// real git repository, Bash on a real PTY.
// Several real git runs and PTY commands per test, on a machine shared with other work.
vi.setConfig({ testTimeout: 90_000 })
const server = useModelServer()
const headless = useHeadless(server, { inheritPath: true })

/** The text of the tool result the request `index` carried last. */
function resultOf(index: number): string {
  const messages = server.requests[index]!.body['messages'] as Message[]
  const block = (messages.at(-1)!.content as ToolResultBlock[])[0]!
  return typeof block.content === 'string' ? block.content : JSON.stringify(block.content)
}

describe('EnterWorktree and ExitWorktree', () => {
  it('move the session into a new worktree and out again, refusing to remove work without discard_changes', async () => {
    makeRepository(headless.project, { 'a.txt': 'a\n' })
    const worktree = join(headless.project, '.claude', 'worktrees', 'entered')
    server.setScenario([
      toolUseReply('EnterWorktree', { name: 'entered' }),
      toolUseReply('Bash', { command: 'echo inside > e.txt && pwd' }),
      toolUseReply('ExitWorktree', { action: 'remove' }),
      toolUseReply('ExitWorktree', { action: 'keep' }),
      toolUseReply('Bash', { command: 'pwd' }),
      toolUseReply('ExitWorktree', { action: 'keep' }),
      textReply('Done.'),
    ])
    const run = await headless.sous(['--permission-mode', 'bypassPermissions', 'Work in a worktree.'])
    expect(run.code).toBe(0)
    expect(resultOf(1)).toBe(`Created worktree at ${worktree} on branch worktree-entered. The repository has no origin/HEAD, so the worktree starts from the current HEAD (worktree.baseRef "fresh" needs a fetched origin). The session is now working in the worktree. Use ExitWorktree to leave mid-session, or exit the session to be prompted.`)
    expect(resultOf(2)).toContain(worktree)
    expect(resultOf(3)).toBe('Worktree has 1 uncommitted file. Removing will discard this work permanently. Confirm with the user, then re-invoke with discard_changes: true — or use action: "keep" to preserve the worktree.')
    expect(resultOf(4)).toBe(`Exited worktree. Your work is preserved at ${worktree} on branch worktree-entered. The session is back in ${headless.project}.`)
    expect(resultOf(5)).toContain(headless.project)
    expect(resultOf(5)).not.toContain('.claude/worktrees')
    expect(resultOf(6)).toContain('No-op: there is no active EnterWorktree session to exit.')
    expect(await readFile(join(worktree, 'e.txt'), 'utf8')).toBe('inside\n')
    expect(existsSync(join(headless.project, 'e.txt'))).toBe(false)
    expect(gitIn(headless.project, 'worktree', 'list', '--porcelain')).toContain('branch refs/heads/worktree-entered')
  })

  it('remove with discard_changes deletes the worktree and its branch and says what was discarded', async () => {
    makeRepository(headless.project, { 'a.txt': 'a\n' })
    const worktree = join(headless.project, '.claude', 'worktrees', 'gone')
    server.setScenario([
      toolUseReply('EnterWorktree', { name: 'gone' }),
      toolUseReply('Bash', { command: 'echo x > b.txt' }),
      toolUseReply('ExitWorktree', { action: 'remove', discard_changes: true }),
      textReply('Removed.'),
    ])
    const run = await headless.sous(['--permission-mode', 'bypassPermissions', 'Try and discard.'])
    expect(run.code).toBe(0)
    expect(resultOf(3)).toBe(`Exited and removed worktree at ${worktree}. Discarded 1 uncommitted file. The session is back in ${headless.project}.`)
    expect(existsSync(worktree)).toBe(false)
    expect(gitIn(headless.project, 'branch', '--list', 'worktree-gone')).toBe('')
  })
})
