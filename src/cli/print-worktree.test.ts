import { execFileSync } from 'node:child_process'
import { existsSync, writeFileSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it, vi } from 'vitest'
import { textReply, toolUseReply } from '../../test/model-server'
import { useModelServer } from '../../test/model-server/vitest'
import { useHeadless } from '../../test/support/headless'
import { gitIn, makeRepository } from '../../test/support/git-repo'
import { pathWithout } from '../../test/support/path-without'
import { takeWorktreeFlag } from './print-worktree'

// `sous -p --worktree` in-process against the scripted server, in a real git repository.
// Several real git runs and PTY commands per test, on a machine shared with other work.
vi.setConfig({ testTimeout: 90_000 })
const server = useModelServer()
const headless = useHeadless(server, { inheritPath: true })

describe('sous -p --worktree', () => {
  it('runs the session in .claude/worktrees/foo: Bash and Write land there, the base is untouched, git lists it', async () => {
    makeRepository(headless.project, { 'greeting.txt': 'hello\n' })
    const worktree = join(headless.project, '.claude', 'worktrees', 'foo')
    server.setScenario([
      toolUseReply('Bash', { command: 'echo from-bash > greeting.txt && pwd' }),
      toolUseReply('Write', { file_path: join(worktree, 'new.txt'), content: 'new\n' }),
      textReply('Done.'),
    ])
    const run = await headless.sous(['--permission-mode', 'bypassPermissions', '--worktree', 'foo', '--output-format', 'stream-json', 'Change the greeting'])
    expect(run.stderr).toContain(`working in the worktree ${worktree} on branch worktree-foo`)
    expect(run.code).toBe(0)
    expect(await readFile(join(worktree, 'greeting.txt'), 'utf8')).toBe('from-bash\n')
    expect(await readFile(join(worktree, 'new.txt'), 'utf8')).toBe('new\n')
    expect(await readFile(join(headless.project, 'greeting.txt'), 'utf8')).toBe('hello\n')
    await expect(readFile(join(headless.project, 'new.txt'), 'utf8')).rejects.toThrow()
    const list = gitIn(headless.project, 'worktree', 'list', '--porcelain')
    expect(list).toContain(`worktree ${worktree}`)
    expect(list).toContain('branch refs/heads/worktree-foo')
    expect(list).toMatch(/locked sous session [0-9a-f-]{36}/)
    const init = JSON.parse(run.stdout.split('\n')[0]!) as { cwd: string }
    expect(init.cwd).toBe(worktree)
    // The shell ran in the worktree.
    expect(JSON.stringify(server.requests[1]!.body['messages'])).toContain(worktree)
  })

  it('refuses a name that is not a branch name or leaves .claude/worktrees, with the reason', async () => {
    makeRepository(headless.project, { 'a.txt': 'a\n' })
    for (const name of ['../escape', 'a..b', 'x.lock', 'with space']) {
      const run = await headless.sous([`--worktree=${name}`, 'hi'])
      expect(run.code).toBe(1)
      expect(run.stderr).toMatch(/is not a worktree name/)
    }
    expect(gitIn(headless.project, 'worktree', 'list').trim().split('\n')).toHaveLength(1)
  })

  it('says clearly that a folder outside git cannot have a worktree', async () => {
    const run = await headless.sous(['-w', 'foo', 'hi'])
    expect(run.code).toBe(1)
    expect(run.stderr).toContain('is not in a git repository')
  })

  it('says clearly that git is missing (a PATH with every program but git)', async () => {
    makeRepository(headless.project, { 'a.txt': 'a\n' })
    const noGit = pathWithout(['git'])
    try {
      const run = await headless.sous(['-w', 'foo', 'hi'], { env: { PATH: noGit.path } })
      expect(run.code).toBe(1)
      expect(run.stderr).toContain('Worktrees need git, and no git program was found on PATH')
      expect(existsSync(join(headless.project, '.claude'))).toBe(false)
    } finally {
      noGit.dispose()
    }
  })

  it('says clearly that git is too old (a git that reports 2.20.1)', async () => {
    makeRepository(headless.project, { 'a.txt': 'a\n' })
    const path = pathWithout(['git'])
    // The real git for everything but its version: an old git as the version check sees it.
    const real = execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim()
    writeFileSync(join(path.path, 'git'), `#!/bin/sh\nfor a in "$@"; do [ "$a" = --version ] && { echo "git version 2.20.1"; exit 0; }; done\nexec ${real} "$@"\n`, { mode: 0o755 })
    try {
      const run = await headless.sous(['-w', 'foo', 'hi'], { env: { PATH: path.path } })
      expect(run.code).toBe(1)
      expect(run.stderr).toContain('Worktrees need git 2.25.0 or later; this git is 2.20.1. Update git, then try again.')
      expect(gitIn(headless.project, 'worktree', 'list').trim().split('\n')).toHaveLength(1)
    } finally {
      path.dispose()
    }
  })

  it('cannot be combined with --resume or --continue', async () => {
    const run = await headless.sous(['-w', '--continue', 'hi'])
    expect(run.code).toBe(2)
    expect(run.stderr).toContain('--worktree starts a new session')
  })
})

describe('takeWorktreeFlag', () => {
  it('takes an optional name the way commander does, leaving a prompt as the prompt', () => {
    expect(takeWorktreeFlag(['-w', 'foo', 'do it'])).toEqual({ argv: ['do it'], worktree: { name: 'foo' } })
    expect(takeWorktreeFlag(['--worktree', 'fix the test'])).toEqual({ argv: ['fix the test'], worktree: {} })
    expect(takeWorktreeFlag(['--worktree', 'prompt'])).toEqual({ argv: ['prompt'], worktree: {} })
    expect(takeWorktreeFlag(['--worktree=a/b', 'x'])).toEqual({ argv: ['x'], worktree: { name: 'a/b' } })
    expect(takeWorktreeFlag(['-w', '--model', 'm', 'x'])).toEqual({ argv: ['--model', 'm', 'x'], worktree: {} })
    expect(takeWorktreeFlag(['x'])).toEqual({ argv: ['x'] })
  })
})
