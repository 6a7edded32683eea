import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync, readdirSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { sandboxPlatformProblem, sandboxScratch, skippedUnless } from '../../../../test/support/sandbox-scratch'
import { freshProjectEach } from '../../../../test/support/gate-sandbox'
import { BashSandbox } from './bash-sandbox'

/**
 * The project looks inside the sandbox as it does outside: protected paths that do not exist get
 * no `/dev/null` placeholder (git lists those as untracked and `git add -A` refuses them), while
 * the ones whose creation matters still cannot be created. Real bubblewrap, real git.
 */

// Outside the temp dirs on purpose: the sandbox makes them writable.
const base = sandboxScratch('.sous-placeholders-')
const project = join(base, 'project')
mkdirSync(project)
const started = await BashSandbox.start({ projectRoot: project, home: join(base, 'home'), protectFiles: [join(base, 'home', '.claude', 'settings.json')] })
const unavailable = sandboxPlatformProblem() ?? (started.ok ? undefined : started.reason)
const sandbox = (started.ok ? started.sandbox : undefined) as BashSandbox

const git = (cwd: string, ...args: string[]): string => execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.invalid', ...args], { cwd, encoding: 'utf8' })

freshProjectEach(() => ({ base, project, sandbox }))

describe('protected paths that do not exist', () => {
  it.skipIf(unavailable !== undefined)(skippedUnless('leave git status clean and git add -A working in a fresh repository', unavailable), async () => {
    git(project, 'init', '-q')
    const r = await sandbox.run('echo hi > a.txt; git status --porcelain --untracked-files=all; echo ---; git add -A && git -c user.name=t -c user.email=t@example.invalid commit -q -m one && echo committed', { cwd: project })
    expect(r.stderr).not.toMatch(/can only add regular files|fatal/)
    expect(r.stdout.split('---')[0]!.trim()).toBe('?? a.txt')
    expect(r.stdout).toContain('committed')
    expect(git(project, 'ls-files').trim()).toBe('a.txt')
    // Nothing is left behind on the host either.
    expect(readdirSync(project).sort()).toEqual(['.git', 'a.txt'])
  })

  it.skipIf(unavailable !== undefined)(skippedUnless('leave git clean -fd and git stash -u working: git takes the placeholder folders for ignored', unavailable), async () => {
    git(project, 'init', '-q')
    git(project, 'commit', '-q', '--allow-empty', '-m', 'first')
    const r = await sandbox.run('echo y > y.txt; git clean -fdn; echo ---; git stash -u -q && git stash pop -q && echo popped; echo ---; git clean -fd && echo cleaned', { cwd: project })
    const [dryRun, stash, clean] = r.stdout.split('---\n')
    expect(dryRun!.trim()).toBe('Would remove y.txt')
    expect(stash!.trim().split('\n').at(-1)).toBe('popped')
    expect(clean).toBe('Removing y.txt\ncleaned\n')
    expect(r.stderr).toBe('')
    // The ignore files went with their folders.
    expect(readdirSync(project)).toEqual(['.git'])
  })

  it.skipIf(unavailable !== undefined)(skippedUnless('still cannot be created where creating them runs something (.vscode, .idea)', unavailable), async () => {
    git(project, 'init', '-q')
    const r = await sandbox.run('mkdir -p .vscode; echo \'{"tasks":[]}\' > .vscode/tasks.json; mkdir -p .idea/x', { cwd: project })
    expect(r.exitCode).not.toBe(0)
    expect(existsSync(join(project, '.vscode', 'tasks.json'))).toBe(false)
    expect(existsSync(join(project, '.idea', 'x'))).toBe(false)
  })

  it.skipIf(unavailable !== undefined)(skippedUnless("leave no file placeholder when Sous itself runs in the project (the library protects its own working directory's files)", unavailable), async () => {
    git(project, 'init', '-q')
    const previous = process.cwd()
    process.chdir(project)
    try {
      const r = await sandbox.run('git status --porcelain --untracked-files=all; echo ---; echo x >> .bashrc || echo refused', { cwd: project })
      expect(r.stdout.split('---')[0]!.trim()).toBe('')
      expect(r.stdout).toContain('refused')
    } finally {
      process.chdir(previous)
    }
    expect(existsSync(join(project, '.bashrc'))).toBe(false)
  })

  it.skipIf(unavailable !== undefined)(skippedUnless('let git find the repository above a project folder that is not one, and keep git init out', unavailable), async () => {
    // The project is a folder of a larger repository (a monorepo package), with no .git of its own.
    const outer = join(base, 'outer')
    rmSync(outer, { recursive: true, force: true })
    mkdirSync(join(outer, 'pkg'), { recursive: true })
    git(outer, 'init', '-q')
    const inner = BashSandbox.forProject({ projectRoot: join(outer, 'pkg'), home: join(base, 'home') })
    const r = await inner.run('git rev-parse --show-toplevel; git init -q . 2>/dev/null || echo init-refused', { cwd: join(outer, 'pkg') })
    expect(r.stderr).not.toMatch(/invalid gitfile format/)
    expect(r.stdout).toContain(outer)
    expect(r.stdout).toContain('init-refused')
    expect(existsSync(join(outer, 'pkg', '.git'))).toBe(false)
    rmSync(outer, { recursive: true, force: true })
  })
})
