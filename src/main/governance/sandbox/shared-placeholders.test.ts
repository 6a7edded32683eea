import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { sandboxPlatformProblem, sandboxScratch, skippedUnless } from '../../../../test/support/sandbox-scratch'
import { BashSandbox } from './bash-sandbox'
import { PlaceholderScope } from './placeholders'

/**
 * A placeholder one command made is kept while another command's policy names it: sessions of
 * one repository in two linked worktrees (Run on N) each protect the other's `config.worktree`,
 * which exists only as the first command's placeholder. When the first command ended before the
 * second's bubblewrap started, the second failed with "Can't get type of source …/config.worktree".
 * Real git worktrees, the real policy; the scopes stand for two commands running at once.
 */

const base = sandboxScratch('.sous-shared-placeholders-')
const repo = join(base, 'repo')
mkdirSync(repo)
const git = (cwd: string, ...args: string[]): string => execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.invalid', ...args], { cwd, encoding: 'utf8' })
git(repo, 'init', '-q')
git(repo, 'commit', '-q', '--allow-empty', '-m', 'first')
const worktree = (name: string) => {
  git(repo, 'worktree', 'add', '-q', '-b', name, join(base, name))
  return join(base, name)
}
const [a, b] = [worktree('a'), worktree('b')]
// The worktrees' git folders are writable, as they are for a project under a temp folder.
const options = (root: string) => ({ projectRoot: root, home: join(base, 'home'), allowWrite: [join(repo, '.git')] })
// One after the other: the library's set-up is process-wide and is not begun twice at once.
const startedA = await BashSandbox.start(options(a))
const startedB = await BashSandbox.start(options(b))
const unavailable = sandboxPlatformProblem() ?? (startedA.ok ? (startedB.ok ? undefined : startedB.reason) : startedA.reason)

afterAll(() => rmSync(base, { recursive: true, force: true }))

/** A command's placeholder scope, as the sandbox makes one for each command. */
function scopeOf(sandbox: BashSandbox, root: string): PlaceholderScope {
  return new PlaceholderScope(
    sandbox.commandConfig().filesystem.allowWrite.map((entry) => (typeof entry === 'string' ? entry : entry.path)),
    root,
  )
}

describe('a placeholder another command holds', () => {
  it.skipIf(unavailable !== undefined)(skippedUnless("outlives that command while this one's policy names it", unavailable), () => {
    if (!startedA.ok || !startedB.ok) return
    const placeholder = join(repo, '.git', 'worktrees', 'a', 'config.worktree')
    expect(existsSync(placeholder)).toBe(false)
    const first = scopeOf(startedA.sandbox, a)
    startedA.sandbox.commandConfig(first)
    expect(existsSync(placeholder)).toBe(true)
    const second = scopeOf(startedB.sandbox, b)
    expect(startedB.sandbox.commandConfig(second).filesystem.denyWrite).toContain(placeholder)
    first.release()
    expect(existsSync(placeholder)).toBe(true)
    second.release()
    expect(existsSync(placeholder)).toBe(false)
  })

  it.skipIf(unavailable !== undefined)(skippedUnless('outlives it in the same project too (.vscode, held by two commands at once)', unavailable), () => {
    if (!startedA.ok) return
    const folder = join(a, '.vscode')
    const [first, second] = [scopeOf(startedA.sandbox, a), scopeOf(startedA.sandbox, a)]
    startedA.sandbox.commandConfig(first)
    expect(existsSync(folder)).toBe(true)
    expect(startedA.sandbox.commandConfig(second).filesystem.denyWrite).toContain(folder)
    first.release()
    expect(existsSync(folder)).toBe(true)
    second.release()
    expect(existsSync(folder)).toBe(false)
  })
})
