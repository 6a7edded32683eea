import { execFileSync } from 'node:child_process'
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { outsideAnyRepository } from './git-discovery'

/** What git itself says of a folder (the answer the shortcut must never contradict). */
function gitSaysInside(folder: string, env: NodeJS.ProcessEnv = process.env): boolean {
  try {
    return execFileSync('git', ['rev-parse', '--is-inside-work-tree'], { cwd: folder, env, stdio: ['ignore', 'pipe', 'ignore'] }).toString().trim() === 'true'
  } catch {
    return false
  }
}

describe('outsideAnyRepository (the start-up shortcut before git rev-parse)', () => {
  let base: string
  let plain: string
  let repo: string
  beforeAll(async () => {
    base = await mkdtemp(join(tmpdir(), 'sous-git-discovery-'))
    plain = join(base, 'plain', 'deep')
    repo = join(base, 'repo')
    await mkdir(plain, { recursive: true })
    await mkdir(join(repo, 'src', 'lib'), { recursive: true })
    execFileSync('git', ['init', '-q', repo])
  })
  afterAll(async () => {
    await rm(base, { recursive: true, force: true })
  })

  it('answers true for a folder with no repository above it, as git does', async () => {
    expect(gitSaysInside(plain)).toBe(false)
    expect(await outsideAnyRepository(plain, {})).toBe(true)
  })

  it('never answers true inside a repository: its top, a folder below it, a link into it', async () => {
    const link = join(base, 'plain', 'link-into-repo')
    await symlink(join(repo, 'src', 'lib'), link)
    for (const folder of [repo, join(repo, 'src', 'lib'), link]) {
      expect(gitSaysInside(folder)).toBe(true)
      expect(await outsideAnyRepository(folder, {})).toBe(false)
    }
  })

  it('leaves it to git when a .git file (a worktree), a HEAD (a bare repository) or GIT_DIR could make one', async () => {
    const worktreeLike = join(base, 'worktree-like')
    await mkdir(worktreeLike)
    await writeFile(join(worktreeLike, '.git'), 'gitdir: /nowhere\n')
    const bareLike = join(base, 'bare-like')
    await mkdir(bareLike)
    await writeFile(join(bareLike, 'HEAD'), 'ref: refs/heads/main\n')
    expect(await outsideAnyRepository(worktreeLike, {})).toBe(false)
    expect(await outsideAnyRepository(bareLike, {})).toBe(false)
    // GIT_DIR makes git see a repository from any folder: only git can say.
    expect(gitSaysInside(plain, { ...process.env, GIT_DIR: join(repo, '.git'), GIT_WORK_TREE: plain })).toBe(true)
    expect(await outsideAnyRepository(plain, { GIT_DIR: join(repo, '.git') })).toBe(false)
    expect(await outsideAnyRepository(plain, { GIT_WORK_TREE: plain })).toBe(false)
  })

  it('answers false (ask git) for a folder it cannot read', async () => {
    expect(await outsideAnyRepository(join(base, 'missing'), {})).toBe(false)
  })
})
