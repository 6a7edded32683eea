import { mkdtempSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync, existsSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { gitIn, makeRepository } from '../../../test/support/git-repo'
import { WorktreeService, type SessionPresence } from './service'

// Real git repositories in temp folders; nothing mocked.
let root: string
let repo: string
let presence: Map<string, SessionPresence>
let service: WorktreeService

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'sous-worktrees-'))
  repo = join(root, 'repo')
  presence = new Map()
  service = new WorktreeService({ home: join(root, 'home'), managedSettingsPath: join(root, 'managed.json'), presence: async (id) => presence.get(id) ?? 'gone' })
})
afterEach(() => rmSync(root, { recursive: true, force: true }))

describe('creating a worktree', () => {
  it('lays it out as Claude Code does and copies what .worktreeinclude names (ignored files only)', async () => {
    makeRepository(repo, { 'a.txt': 'a\n', '.gitignore': '.env\nsecrets/\nnode_modules/\nlocal.json\n', '.worktreeinclude': '.env\nsecrets/\n# a comment\n' })
    writeFileSync(join(repo, '.env'), 'KEY=1\n')
    mkdirSync(join(repo, 'secrets'))
    writeFileSync(join(repo, 'secrets', 'key.pem'), 'pem\n')
    writeFileSync(join(repo, 'local.json'), '{}\n')
    mkdirSync(join(repo, 'node_modules', 'pkg'), { recursive: true })
    writeFileSync(join(repo, 'node_modules', 'pkg', '.env'), 'not copied\n')
    const { info } = await service.create(repo, { name: 'fix/login', owner: 'session' })
    expect(info.path).toBe(join(repo, '.claude', 'worktrees', 'fix+login'))
    expect(info.branch).toBe('worktree-fix+login')
    expect(info.baseBranch).toBe('main')
    expect(info.copied).toEqual(['.env', 'secrets/key.pem'])
    expect(readFileSync(join(info.path, '.env'), 'utf8')).toBe('KEY=1\n')
    expect(existsSync(join(info.path, 'local.json'))).toBe(false)
    expect(existsSync(join(info.path, 'node_modules'))).toBe(false)
    expect(gitIn(repo, 'worktree', 'list', '--porcelain')).toContain('branch refs/heads/worktree-fix+login')
  })

  it("copies the user's gitignored .claude/settings.local.json in, as Claude Code does; a link is not followed", async () => {
    makeRepository(repo, { 'a.txt': 'a\n', '.gitignore': '.claude/settings.local.json\n' })
    mkdirSync(join(repo, '.claude'))
    const local = JSON.stringify({ permissions: { allow: ['Bash(npm test)'] } })
    writeFileSync(join(repo, '.claude', 'settings.local.json'), local)
    const { info } = await service.create(repo, { name: 'local', owner: 'session' })
    expect(readFileSync(join(info.path, '.claude', 'settings.local.json'), 'utf8')).toBe(local)
    expect(info.copied).toEqual(['.claude/settings.local.json'])
    // A settings.local.json that is a link (to a file outside) is not copied through.
    const outside = join(root, 'outside.json')
    writeFileSync(outside, '{"permissions":{"allow":["Bash(*)"]}}')
    rmSync(join(repo, '.claude', 'settings.local.json'))
    symlinkSync(outside, join(repo, '.claude', 'settings.local.json'))
    const linked = await service.create(repo, { name: 'linked', owner: 'session' })
    expect(existsSync(join(linked.info.path, '.claude', 'settings.local.json'))).toBe(false)
    expect(linked.include.skipped).toContainEqual({ path: '.claude/settings.local.json', why: 'it is a symbolic link, which is not followed' })
    // None in the main checkout: nothing copied, nothing said.
    rmSync(join(repo, '.claude', 'settings.local.json'))
    const none = await service.create(repo, { name: 'none', owner: 'session' })
    expect(none.info.copied).toBeUndefined()
    expect(none.include.skipped).toEqual([])
  })

  it('honours worktree.sparsePaths and worktree.baseRef "head" from the settings', async () => {
    makeRepository(repo, { 'packages/app/index.ts': 'x\n', 'packages/other/index.ts': 'y\n', 'README.md': 'r\n' })
    mkdirSync(join(repo, '.claude'), { recursive: true })
    writeFileSync(join(repo, '.claude', 'settings.json'), JSON.stringify({ worktree: { baseRef: 'head', sparsePaths: ['packages/app'] } }))
    gitIn(repo, 'checkout', '-q', '-b', 'feature')
    writeFileSync(join(repo, 'feature.txt'), 'f\n')
    gitIn(repo, 'add', 'feature.txt')
    gitIn(repo, 'commit', '-q', '-m', 'feature')
    const { info, notes } = await service.create(repo, { name: 'sparse', owner: 'session' })
    expect(notes).toEqual([])
    expect(info.baseBranch).toBe('feature')
    expect(info.sparsePaths).toEqual(['packages/app'])
    expect(existsSync(join(info.path, 'packages', 'app', 'index.ts'))).toBe(true)
    expect(existsSync(join(info.path, 'packages', 'other'))).toBe(false)
    // Cone mode keeps the files at the top.
    expect(existsSync(join(info.path, 'feature.txt'))).toBe(true)
  })

  it('fails closed on a settings file it cannot parse or a value of the wrong shape', async () => {
    makeRepository(repo, { 'a.txt': 'a\n' })
    mkdirSync(join(repo, '.claude'), { recursive: true })
    writeFileSync(join(repo, '.claude', 'settings.json'), '{ "worktree": ')
    await expect(service.create(repo, { name: 'x', owner: 'session' })).rejects.toThrow(/is not valid JSON/)
    writeFileSync(join(repo, '.claude', 'settings.json'), JSON.stringify({ worktree: { sparsePaths: ['../outside'] } }))
    await expect(service.create(repo, { name: 'x', owner: 'session' })).rejects.toThrow(/not a folder inside the repository/)
    writeFileSync(join(repo, '.claude', 'settings.json'), JSON.stringify({ worktree: { baseRef: 'main' } }))
    await expect(service.create(repo, { name: 'x', owner: 'session' })).rejects.toThrow(/must be "fresh" or "head"/)
    expect(existsSync(join(repo, '.claude', 'worktrees', 'x'))).toBe(false)
  })

  it('never reuses a name: the folder or the branch existing refuses it, so two sessions never share one', async () => {
    makeRepository(repo, { 'a.txt': 'a\n' })
    await service.create(repo, { name: 'one', owner: 'session', sessionId: 's1' })
    await expect(service.create(repo, { name: 'one', owner: 'session', sessionId: 's2' })).rejects.toThrow(/already exists/)
    gitIn(repo, 'branch', 'worktree-two')
    await expect(service.create(repo, { name: 'two', owner: 'session' })).rejects.toThrow(/branch named worktree-two already exists/)
  })

  it('refuses every name that is not a branch name or would leave .claude/worktrees, making nothing', async () => {
    makeRepository(repo, { 'a.txt': 'a\n' })
    const bad = ['../escape', 'a/../../b', '/abs', 'a/', 'a//b', '-rf', '.hidden', 'a/.git', '..', '.', 'a..b', 'x.lock', 'a.', 'with space', 'a~b', 'a^b', 'a:b', 'a?b', 'a*b', 'a[b', '@{u}', 'a\\b', 'a\nb', 'caf\u00e9', 'x'.repeat(65), '']
    for (const name of bad) {
      await expect(service.create(repo, { name, owner: 'session' }), name).rejects.toMatchObject({ code: 'INVALID_INPUT', message: expect.stringMatching(/is not a worktree name/) })
    }
    expect(existsSync(join(repo, '.claude', 'worktrees')) ? readdirSync(join(repo, '.claude', 'worktrees')) : []).toEqual([])
    expect(gitIn(repo, 'branch', '--list', 'worktree-*')).toBe('')
    expect(gitIn(repo, 'worktree', 'list').trim().split('\n')).toHaveLength(1)
  })

  it('says once, with the reason, when worktrees are unavailable: no repository, no git, an old git', async () => {
    mkdirSync(repo)
    expect(await service.availability(repo)).toMatchObject({ available: false, reason: 'not-a-repository' })
    const noGit = new WorktreeService({ home: join(root, 'home'), env: { PATH: '/nonexistent' } })
    expect(await noGit.availability(repo)).toMatchObject({ available: false, reason: 'git-missing', message: expect.stringContaining('no git program was found on PATH') })
    await expect(noGit.create(repo, { owner: 'session' })).rejects.toThrow(/no git program was found/)
    // An old git: a `git` on PATH that says it is 2.20.
    const bin = join(root, 'bin')
    mkdirSync(bin)
    writeFileSync(join(bin, 'git'), '#!/bin/sh\necho "git version 2.20.1"\n', { mode: 0o755 })
    const oldGit = new WorktreeService({ home: join(root, 'home'), env: { PATH: bin } })
    expect(await oldGit.availability(repo)).toMatchObject({ available: false, reason: 'git-too-old', message: expect.stringContaining('this git is 2.20.1') })
  })
})

describe('an untrusted repository', () => {
  it('does not make a worktree through a .claude or .claude/worktrees that is a link', async () => {
    makeRepository(repo, { 'a.txt': 'a\n' })
    const outside = join(root, 'outside')
    mkdirSync(outside)
    symlinkSync(outside, join(repo, '.claude'))
    await expect(service.create(repo, { name: 'x', owner: 'session' })).rejects.toThrow(/\.claude is a symbolic link/)
    rmSync(join(repo, '.claude'))
    mkdirSync(join(repo, '.claude'))
    symlinkSync(outside, join(repo, '.claude', 'worktrees'))
    await expect(service.create(repo, { name: 'x', owner: 'session' })).rejects.toThrow(/worktrees is a symbolic link/)
    expect(existsSync(join(outside, 'x'))).toBe(false)
  })

  it('.worktreeinclude copies nothing from outside the project and follows no link out', async () => {
    const outside = join(root, 'outside')
    mkdirSync(outside)
    writeFileSync(join(outside, 'passwd'), 'secret\n')
    makeRepository(repo, { 'a.txt': 'a\n', '.gitignore': '*.key\nlinked/\n', 'config/.keep': '' })
    writeFileSync(join(repo, '.worktreeinclude'), '*.key\nlinked/\n/../outside/passwd\n')
    symlinkSync(join(outside, 'passwd'), join(repo, 'stolen.key'))
    symlinkSync(outside, join(repo, 'linked'))
    writeFileSync(join(repo, 'real.key'), 'mine\n')
    const { info, include } = await service.create(repo, { name: 'x', owner: 'session' })
    expect(info.copied).toEqual(['real.key'])
    expect(include.skipped).toContainEqual({ path: 'stolen.key', why: 'it is a symbolic link, which is not followed' })
    expect(existsSync(join(info.path, 'stolen.key'))).toBe(false)
    expect(existsSync(join(info.path, 'linked'))).toBe(false)
  })

  it('a .worktreeinclude that is a link is not read; a destination link in the checkout is never written through', async () => {
    const outside = join(root, 'outside')
    mkdirSync(outside)
    writeFileSync(join(outside, 'include'), '.env\n')
    makeRepository(repo, { 'a.txt': 'a\n', '.gitignore': '.env\n' })
    writeFileSync(join(repo, '.env'), 'KEY\n')
    symlinkSync(join(outside, 'include'), join(repo, '.worktreeinclude'))
    const first = await service.create(repo, { name: 'one', owner: 'session' })
    expect(first.info.copied).toBeUndefined()
    expect(first.include.skipped).toEqual([{ path: '.worktreeinclude', why: 'it is a symbolic link, which is not followed' }])
    // A committed link where the copy would go (config -> outside): the copy is refused.
    rmSync(join(repo, '.worktreeinclude'))
    const repo2 = join(root, 'repo2')
    makeRepository(repo2, { '.gitignore': 'config/.env\n', '.worktreeinclude': 'config/.env\n', 'b.txt': 'b\n' })
    symlinkSync(outside, join(repo2, 'config-link'))
    gitIn(repo2, 'rm', '-q', '--cached', '-r', '--ignore-unmatch', 'config')
    mkdirSync(join(repo2, 'config'))
    writeFileSync(join(repo2, 'config', '.env'), 'SECRET\n')
    // Commit `config` as a link to the outside folder, then give the main checkout a real folder back.
    rmSync(join(repo2, 'config'), { recursive: true })
    symlinkSync(outside, join(repo2, 'config'))
    gitIn(repo2, 'add', 'config')
    gitIn(repo2, 'commit', '-q', '-m', 'link')
    rmSync(join(repo2, 'config'))
    mkdirSync(join(repo2, 'config'))
    writeFileSync(join(repo2, 'config', '.env'), 'SECRET\n')
    const second = await service.create(repo2, { name: 'two', owner: 'session' })
    expect(second.info.copied).toBeUndefined()
    expect(existsSync(join(outside, '.env'))).toBe(false)
  })

  it('refuses a repository whose own configuration names a program git would run on checkout', async () => {
    makeRepository(repo, { 'a.txt': 'a\n' })
    gitIn(repo, 'config', 'filter.evil.smudge', 'touch /tmp/pwned-by-sous-test')
    expect(await service.availability(repo)).toMatchObject({ available: false, reason: 'unsafe-config', message: expect.stringContaining('filter.evil.smudge') })
    await expect(service.create(repo, { name: 'x', owner: 'session' })).rejects.toThrow(/filter\.evil\.smudge/)
  })

  it('runs no hook of the repository while making the worktree', async () => {
    makeRepository(repo, { 'a.txt': 'a\n' })
    const marker = join(root, 'hook-ran')
    writeFileSync(join(repo, '.git', 'hooks', 'post-checkout'), `#!/bin/sh\ntouch ${marker}\n`, { mode: 0o755 })
    await service.create(repo, { name: 'x', owner: 'session' })
    expect(existsSync(marker)).toBe(false)
  })
})

describe("the repository's core.hooksPath in a new worktree", () => {
  // husky's layout: `core.hooksPath = .husky/_`, a folder `husky install` generates and git ignores,
  // so a new worktree has none of its own. As Claude Code does, the worktree is pointed at the main
  // checkout's folder, so the user's commits there run the project's hooks; nothing runs while it is made.
  it('points a relative hooks path at the main checkout, so a commit in the worktree runs its hooks', async () => {
    makeRepository(repo, { 'a.txt': 'a\n', '.gitignore': '.husky/_\n' })
    const marker = join(root, 'pre-commit-ran')
    mkdirSync(join(repo, '.husky', '_'), { recursive: true })
    writeFileSync(join(repo, '.husky', '_', 'pre-commit'), `#!/bin/sh\necho "$PWD" >> ${marker}\n`, { mode: 0o755 })
    gitIn(repo, 'config', 'core.hooksPath', '.husky/_')
    const { info } = await service.create(repo, { name: 'hooks', owner: 'session' })
    expect(existsSync(marker)).toBe(false)
    expect(gitIn(info.path, 'config', '--get', 'core.hooksPath').trim()).toBe(join(repo, '.husky', '_'))
    writeFileSync(join(info.path, 'b.txt'), 'b\n')
    gitIn(info.path, 'add', 'b.txt')
    gitIn(info.path, 'commit', '-q', '-m', 'in the worktree')
    expect(readFileSync(marker, 'utf8').trim()).toBe(info.path)
    // The main checkout's own commits still run the same hooks.
    writeFileSync(join(repo, 'c.txt'), 'c\n')
    gitIn(repo, 'add', 'c.txt')
    gitIn(repo, 'commit', '-q', '-m', 'in the base')
    expect(readFileSync(marker, 'utf8').trim().split('\n')).toEqual([info.path, repo])
  })

  it('leaves an absolute hooks path, and no hooks path, as they are', async () => {
    makeRepository(repo, { 'a.txt': 'a\n' })
    const plain = await service.create(repo, { name: 'plain', owner: 'session' })
    expect(() => gitIn(plain.info.path, 'config', '--get', 'core.hooksPath')).toThrow()
    gitIn(repo, 'config', 'core.hooksPath', join(root, 'team-hooks'))
    const absolute = await service.create(repo, { name: 'absolute', owner: 'session' })
    expect(gitIn(absolute.info.path, 'config', '--get', 'core.hooksPath').trim()).toBe(join(root, 'team-hooks'))
  })
})

describe('removing and cleanup', () => {
  it('refuses to remove a worktree with unmerged commits or changes, says what would be lost, and removes when forced', async () => {
    makeRepository(repo, { 'a.txt': 'a\n' })
    const { info } = await service.create(repo, { name: 'work', owner: 'session', sessionId: 's1' })
    writeFileSync(join(info.path, 'a.txt'), 'changed\n')
    gitIn(info.path, 'commit', '-q', '-am', 'a change')
    writeFileSync(join(info.path, 'b.txt'), 'new\n')
    const refused = await service.remove(repo, info.path, { owner: 's1' })
    expect(refused).toMatchObject({ removed: false, loss: { uncommitted: ['b.txt'], commits: [{ subject: 'a change' }], summary: '1 uncommitted file and 1 commit on worktree-work not in the base' } })
    expect(existsSync(info.path)).toBe(true)
    const forced = await service.remove(repo, info.path, { owner: 's1', force: true })
    expect(forced).toMatchObject({ removed: true, discarded: { summary: '1 uncommitted file and 1 commit on worktree-work not in the base' } })
    expect(existsSync(info.path)).toBe(false)
    expect(gitIn(repo, 'branch', '--list', 'worktree-work')).toBe('')
  })

  it('counts commits merged into the base as kept', async () => {
    makeRepository(repo, { 'a.txt': 'a\n' })
    const { info } = await service.create(repo, { name: 'merged', owner: 'session', sessionId: 's1' })
    writeFileSync(join(info.path, 'a.txt'), 'changed\n')
    gitIn(info.path, 'commit', '-q', '-am', 'a change')
    gitIn(repo, 'merge', '-q', '--ff-only', 'worktree-merged')
    expect(await service.remove(repo, info.path, { owner: 's1' })).toMatchObject({ removed: true })
  })

  it('lists worktrees whose session is gone for cleanup and removes them only when asked; another session\'s is refused', async () => {
    makeRepository(repo, { 'a.txt': 'a\n' })
    const live = await service.create(repo, { name: 'live', owner: 'session', sessionId: 'alive' })
    const gone = await service.create(repo, { name: 'gone', owner: 'session', sessionId: 'dead' })
    gitIn(repo, 'worktree', 'add', '-q', '-b', 'theirs', join(repo, '.claude', 'worktrees', 'claude-code'))
    presence.set('alive', 'live')
    const rows = await service.list(repo)
    expect(rows.map((row) => [row.name, row.state])).toEqual([['live', 'live'], ['gone', 'orphan'], ['claude-code', 'unregistered']])
    expect(existsSync(gone.info.path)).toBe(true)
    await expect(service.remove(repo, live.info.path)).rejects.toThrow(/belongs to session alive/)
    expect(await service.remove(repo, gone.info.path)).toMatchObject({ removed: true })
    expect((await service.list(repo)).map((row) => row.name)).toEqual(['live', 'claude-code'])
    // A path outside .claude/worktrees is never a cleanup candidate.
    await expect(service.remove(repo, repo)).rejects.toThrow(/No worktree of this repository/)
  })
})
