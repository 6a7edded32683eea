import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { memoryFolders, projectFolderName, repositoryRoot } from './locations'

let root: string
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'sous-memloc-'))
})
afterEach(async () => {
  await rm(root, { recursive: true, force: true })
})

describe('memory locations', () => {
  it('names project folders as Claude Code does', () => {
    expect(projectFolderName('/home/me/my_app.v2')).toBe('-home-me-my-app-v2')
    const long = `/${'a'.repeat(300)}`
    expect(projectFolderName(long)).toMatch(/^-a{199}-[0-9a-z]+$/)
  })

  it('keys a project by its repository root, shared by worktrees and subfolders', async () => {
    const main = join(root, 'repo')
    await mkdir(join(main, '.git', 'worktrees', 'feature'), { recursive: true })
    await mkdir(join(main, 'src', 'deep'), { recursive: true })
    await writeFile(join(main, '.git', 'worktrees', 'feature', 'commondir'), '../..\n')
    const worktree = join(root, 'feature')
    await mkdir(worktree)
    await writeFile(join(worktree, '.git'), `gitdir: ${join(main, '.git', 'worktrees', 'feature')}\n`)
    expect(await repositoryRoot(join(main, 'src', 'deep'))).toBe(main)
    expect(await repositoryRoot(worktree)).toBe(main)
    const plain = join(root, 'plain')
    await mkdir(plain)
    expect(await repositoryRoot(plain)).toBe(plain)
  })

  it('uses ~/.claude/projects/<project>/memory, autoMemoryDirectory from user settings, or $SOUS_HOME', async () => {
    const home = join(root, 'home')
    const project = join(root, 'app')
    await mkdir(project)
    const base = { projectPath: project, sousHome: join(home, '.sous'), home, env: {} }
    const claude = await memoryFolders(base)
    expect(claude).toEqual({
      user: join(home, '.sous', 'memory'),
      project: join(home, '.claude', 'projects', projectFolderName(project), 'memory'),
      projectRoot: project,
      projectSource: 'claude',
    })
    const configured = await memoryFolders({ ...base, env: { CLAUDE_CONFIG_DIR: join(root, 'cfg') } })
    expect(configured.project).toBe(join(root, 'cfg', 'projects', projectFolderName(project), 'memory'))
    await mkdir(join(home, '.claude'), { recursive: true })
    await writeFile(join(home, '.claude', 'settings.json'), JSON.stringify({ autoMemoryDirectory: '~/notes/memory' }))
    expect(await memoryFolders(base)).toMatchObject({ project: join(home, 'notes', 'memory'), projectSource: 'autoMemoryDirectory' })
    // A project's own settings never move the memory (a cloned repository could point it anywhere).
    await mkdir(join(project, '.claude'))
    await writeFile(join(project, '.claude', 'settings.json'), JSON.stringify({ autoMemoryDirectory: '/etc' }))
    await writeFile(join(home, '.claude', 'settings.json'), JSON.stringify({ autoMemoryDirectory: 'relative/path' }))
    expect((await memoryFolders(base)).projectSource).toBe('claude')
    expect(await memoryFolders({ ...base, place: 'sous' })).toMatchObject({
      project: join(home, '.sous', 'projects', projectFolderName(project), 'memory'),
      projectSource: 'sous',
    })
  })
})
