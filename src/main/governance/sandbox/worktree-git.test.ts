import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { sandboxPlatformProblem, sandboxScratch, skippedUnless } from '../../../../test/support/sandbox-scratch'
import { BashSandbox } from './bash-sandbox'
import { linkedWorktreeGitDirs } from './worktree-git-dirs'

/**
 * git in a linked worktree's sandbox, as a worktree session runs it: add and commit work (git
 * writes the worktree's own git folder and the shared objects and refs, outside the project),
 * while the shared config, hooks, the base's working tree and other worktrees' pointers stay out
 * of reach. A `.git` file that names a folder git did not make for this worktree opens nothing.
 * Real git, real bubblewrap, a scratch folder outside the temp dirs (which are writable anyway).
 */

const base = sandboxScratch('.sous-worktree-git-')
const repo = join(base, 'repo')
const tree = join(base, 'tree')
const git = (cwd: string, ...args: string[]): string => execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.invalid', ...args], { cwd, encoding: 'utf8' })
mkdirSync(repo)
git(repo, 'init', '-q', '-b', 'main')
writeFileSync(join(repo, 'a.txt'), 'one\n')
git(repo, 'add', '-A')
git(repo, 'commit', '-q', '-m', 'first')
git(repo, 'worktree', 'add', '-q', '-b', 'feature', tree)
const started = await BashSandbox.start({ projectRoot: tree, home: join(base, 'home') })
const unavailable = sandboxPlatformProblem() ?? (started.ok ? undefined : started.reason)
const run = (command: string) => (started.ok ? started.sandbox.run(command, { cwd: tree }) : Promise.reject(new Error('no sandbox')))

afterAll(() => rmSync(base, { recursive: true, force: true }))

describe('a linked worktree in the sandbox', () => {
  it.skipIf(unavailable !== undefined)(skippedUnless('lets git add and commit there, and leaves nothing behind', unavailable), async () => {
    const r = await run('echo two > b.txt && git add b.txt && git -c user.name=t -c user.email=t@example.invalid commit -q -m second && git status --porcelain')
    expect(r.stderr).toBe('')
    expect(r.exitCode).toBe(0)
    expect(r.stdout.trim()).toBe('')
    expect(git(repo, 'log', '--format=%s', 'feature').trim().split('\n')).toEqual(['second', 'first'])
    // The base's branch and checkout are as they were; no placeholder is left in the git folders.
    expect(git(repo, 'log', '--format=%s', 'main').trim()).toBe('first')
    expect(git(repo, 'status', '--porcelain')).toBe('')
    expect(readdirSync(join(repo, '.git', 'worktrees', 'tree')).filter((name) => ['hooks', 'info', 'modules', 'config.worktree'].includes(name))).toEqual([])
  })

  it.skipIf(unavailable !== undefined)(skippedUnless("still refuses the shared config and hooks, the base's files and this worktree's pointers", unavailable), async () => {
    const common = join(repo, '.git')
    const attempts = [
      `git config core.hooksPath ${join(base, 'evil')}`,
      `echo 'touch ${join(base, 'ran')}' > ${join(common, 'hooks', 'pre-commit')}`,
      `echo changed > ${join(repo, 'a.txt')}`,
      `echo ${base} > ${join(common, 'worktrees', 'tree', 'gitdir')}`,
      `echo ${base} > ${join(common, 'worktrees', 'tree', 'commondir')}`,
      `echo 'gitdir: ${base}' > .git`,
      `echo '[core]' > ${join(common, 'worktrees', 'tree', 'config.worktree')}`,
    ]
    for (const command of attempts) expect((await run(command)).exitCode, command).not.toBe(0)
    expect(git(repo, 'config', '--default', 'none', '--get', 'core.hooksPath').trim()).toBe('none')
    expect(existsSync(join(common, 'hooks', 'pre-commit'))).toBe(false)
    expect(readFileSync(join(repo, 'a.txt'), 'utf8')).toBe('one\n')
    expect(readFileSync(join(tree, '.git'), 'utf8')).toContain(join(common, 'worktrees', 'tree'))
    // The shared objects are writable, but an alternates file sending git elsewhere is removed as it appears.
    await run(`echo ${base} > ${join(common, 'objects', 'info', 'alternates')}`)
    expect(existsSync(join(common, 'objects', 'info', 'alternates'))).toBe(false)
  })
})

describe("a submodule's checkout in the sandbox", () => {
  it.skipIf(unavailable !== undefined)(skippedUnless('lets git commit there, in the git folder the superproject keeps for it', unavailable), async () => {
    const superproject = join(base, 'super')
    mkdirSync(superproject)
    git(superproject, 'init', '-q', '-b', 'main')
    git(superproject, '-c', 'protocol.file.allow=always', 'submodule', 'add', '-q', repo, 'sub')
    const sub = join(superproject, 'sub')
    const own = join(superproject, '.git', 'modules', 'sub')
    expect(linkedWorktreeGitDirs(sub)).toEqual([own])
    const started = await BashSandbox.start({ projectRoot: sub, home: join(base, 'home') })
    if (!started.ok) throw new Error(started.reason)
    const r = await started.sandbox.run('echo three > c.txt && git add c.txt && git -c user.name=t -c user.email=t@example.invalid commit -q -m third && echo hooked > .git-hook-probe; echo x > ' + join(own, 'hooks', 'pre-commit'), { cwd: sub })
    expect(r.exitCode).not.toBe(0)
    expect(git(sub, 'log', '--format=%s', '-1').trim()).toBe('third')
    expect(existsSync(join(own, 'hooks', 'pre-commit'))).toBe(false)
    // A config naming another checkout as its worktree opens nothing.
    git(own, 'config', 'core.worktree', '../../../elsewhere')
    expect(linkedWorktreeGitDirs(sub)).toEqual([])
  })
})

describe('linkedWorktreeGitDirs', () => {
  it("opens a real worktree's folder and the shared objects, refs and logs", () => {
    const common = join(repo, '.git')
    expect(linkedWorktreeGitDirs(tree)).toEqual([join(common, 'worktrees', 'tree'), join(common, 'objects'), join(common, 'refs'), join(common, 'logs')])
    expect(linkedWorktreeGitDirs(repo)).toEqual([])
  })

  it("opens nothing for a .git file naming another worktree's folder, or a folder it made up", () => {
    const other = join(base, 'other')
    git(repo, 'worktree', 'add', '-q', '-b', 'other', other)
    const planted = join(base, 'planted')
    mkdirSync(planted)
    // The repository's own .git file claims the other worktree's git folder: its gitdir points elsewhere.
    writeFileSync(join(planted, '.git'), `gitdir: ${join(repo, '.git', 'worktrees', 'other')}\n`)
    expect(linkedWorktreeGitDirs(planted)).toEqual([])
    // A made-up git folder inside the repository, pointing back at its .git, naming the real shared folder.
    const fake = join(planted, 'fake')
    mkdirSync(fake)
    writeFileSync(join(fake, 'gitdir'), `${join(planted, '.git')}\n`)
    writeFileSync(join(fake, 'commondir'), `${join(repo, '.git')}\n`)
    writeFileSync(join(planted, '.git'), `gitdir: ${fake}\n`)
    expect(linkedWorktreeGitDirs(planted)).toEqual([])
  })

  it('opens nothing when the shared refs are a link', () => {
    const linked = join(base, 'linked')
    mkdirSync(join(linked, 'common', 'objects'), { recursive: true })
    mkdirSync(join(linked, 'elsewhere'))
    symlinkSync(join(linked, 'elsewhere'), join(linked, 'common', 'refs'))
    const own = join(linked, 'common', 'worktrees', 'w')
    mkdirSync(own, { recursive: true })
    mkdirSync(join(linked, 'w'))
    writeFileSync(join(linked, 'w', '.git'), `gitdir: ${own}\n`)
    writeFileSync(join(own, 'gitdir'), `${join(linked, 'w', '.git')}\n`)
    writeFileSync(join(own, 'commondir'), '../..\n')
    expect(linkedWorktreeGitDirs(join(linked, 'w'))).toEqual([])
    rmSync(join(linked, 'common', 'refs'))
    mkdirSync(join(linked, 'common', 'refs'))
    expect(linkedWorktreeGitDirs(join(linked, 'w'))).toEqual([own, join(linked, 'common', 'objects'), join(linked, 'common', 'refs')])
  })
})
