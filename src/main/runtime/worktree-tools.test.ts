import { mkdtempSync, realpathSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { gitIn, makeRepository } from '../../../test/support/git-repo'
import { ShellState } from '../tools/shell/shell-state'
import { WorktreeService, type SessionPresence } from '../worktrees/service'
import { createWorktreeControl } from './worktree-tools'

// EnterWorktree / ExitWorktree of several sessions on one real repository: a worktree is never
// held by two sessions at once.
let temp: string
let repo: string
let presence: Map<string, SessionPresence>
let service: WorktreeService

beforeEach(() => {
  temp = realpathSync(mkdtempSync(join(tmpdir(), 'sous-enter-')))
  repo = join(temp, 'repo')
  makeRepository(repo, { 'a.txt': 'a\n', '.gitignore': '.claude/worktrees/\n' })
  presence = new Map()
  service = new WorktreeService({ home: join(temp, 'home'), presence: async (id) => presence.get(id) ?? 'gone' })
})
afterEach(() => rmSync(temp, { recursive: true, force: true }))

const control = (sessionId: string) => {
  const shell = new ShellState(repo)
  return { shell, tools: createWorktreeControl({ service, projectPath: repo, sessionId, shell }) }
}
const text = (result: { content: unknown }) => String(result.content)

describe('EnterWorktree across sessions', () => {
  it("refuses another live session's worktree by path, and of two sessions entering an orphan at once exactly one gets it", async () => {
    const a = control('session-a')
    presence.set('session-a', 'live')
    const made = await a.tools.enter({ name: 'work' })
    const path = join(repo, '.claude', 'worktrees', 'work')
    expect(text(made)).toContain(`Created worktree at ${path}`)
    expect(a.shell.cwd).toBe(path)
    // Session B asks for A's worktree by path while A is live: refused, B stays where it was.
    const b = control('session-b')
    const refused = await b.tools.enter({ path })
    expect(refused.isError).toBe(true)
    expect(text(refused)).toContain('is in use by session session-a')
    expect(b.shell.cwd).toBe(repo)
    // A's session is gone: its worktree is an orphan, and two sessions asking for it at once get it once.
    presence.delete('session-a')
    const c = control('session-c')
    const [forB, forC] = await Promise.all([b.tools.enter({ path }), c.tools.enter({ path })])
    const winners = [forB, forC].filter((result) => !result.isError)
    expect(winners).toHaveLength(1)
    expect(text([forB, forC].find((result) => result.isError)!)).toMatch(/two sessions never share a worktree/)
    const holder = forB.isError ? 'session-c' : 'session-b'
    expect((await service.registry.list(repo)).find((record) => record.path === path)?.sessionId).toBe(holder)
    expect(gitIn(repo, 'worktree', 'list', '--porcelain')).toContain(`locked sous entered ${holder}`)
  })
})
