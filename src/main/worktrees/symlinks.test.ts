import { existsSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, readlinkSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, expect, it } from 'vitest'
import { makeRepository } from '../../../test/support/git-repo'
import { WorktreeService } from './service'

// Real git repositories in temp folders; nothing mocked.
let root: string
let repo: string
let service: WorktreeService

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'sous-worktree-links-'))
  repo = join(root, 'repo')
  service = new WorktreeService({ home: join(root, 'home'), managedSettingsPath: join(root, 'managed.json'), presence: async () => 'gone' })
})
afterEach(() => rmSync(root, { recursive: true, force: true }))

function localSettings(worktree: object): void {
  mkdirSync(join(repo, '.claude'), { recursive: true })
  writeFileSync(join(repo, '.claude', 'settings.local.json'), JSON.stringify({ worktree }))
}

it('links worktree.symlinkDirectories from the main checkout (relative links) and says why a folder was not linked', async () => {
  makeRepository(repo, { 'a.txt': 'a\n', 'src/index.ts': 'x\n', '.gitignore': 'node_modules/\n.cache/\n.claude/settings.local.json\nlinked-out\n' })
  mkdirSync(join(repo, 'node_modules', 'pkg'), { recursive: true })
  writeFileSync(join(repo, 'node_modules', 'pkg', 'index.js'), 'module.exports = 1\n')
  mkdirSync(join(root, 'elsewhere'))
  symlinkSync(join(root, 'elsewhere'), join(repo, 'linked-out'))
  localSettings({ symlinkDirectories: ['node_modules/', '.cache', 'src', 'linked-out', 'a.txt'] })
  const { info, notes } = await service.create(repo, { name: 'links', owner: 'session' })
  const link = join(info.path, 'node_modules')
  expect(lstatSync(link).isSymbolicLink()).toBe(true)
  expect(readlinkSync(link)).toBe(join('..', '..', '..', 'node_modules'))
  expect(readFileSync(join(link, 'pkg', 'index.js'), 'utf8')).toBe('module.exports = 1\n')
  // The tracked folder stays the worktree's own; absent, outside-leading and file entries are skipped with why.
  expect(lstatSync(join(info.path, 'src')).isSymbolicLink()).toBe(false)
  expect(existsSync(join(info.path, '.cache'))).toBe(false)
  expect(existsSync(join(info.path, 'linked-out'))).toBe(false)
  expect(notes.filter((note) => note.startsWith('worktree.symlinkDirectories'))).toEqual([
    'worktree.symlinkDirectories: .cache was not linked from the main checkout: the main checkout has no such folder.',
    'worktree.symlinkDirectories: src was not linked from the main checkout: the worktree already has something there.',
    'worktree.symlinkDirectories: linked-out was not linked from the main checkout: it leads outside the main checkout.',
    'worktree.symlinkDirectories: a.txt was not linked from the main checkout: it is not a folder in the main checkout.',
  ])
})

it("ignores symlinkDirectories in the repository's own committed settings, which would share the base checkout's folders", async () => {
  makeRepository(repo, { 'src/index.ts': 'x\n', '.claude/settings.json': JSON.stringify({ worktree: { symlinkDirectories: ['src', 'node_modules'] } }), '.gitignore': 'node_modules/\n' })
  mkdirSync(join(repo, 'node_modules'))
  const { info } = await service.create(repo, { name: 'planted', owner: 'session' })
  expect(lstatSync(join(info.path, 'src')).isSymbolicLink()).toBe(false)
  expect(existsSync(join(info.path, 'node_modules'))).toBe(false)
})

it('refuses a symlinkDirectories entry that leaves the repository, failing closed', async () => {
  makeRepository(repo, { 'a.txt': 'a\n', '.gitignore': '.claude/settings.local.json\n' })
  localSettings({ symlinkDirectories: ['../outside'] })
  await expect(service.create(repo, { name: 'x', owner: 'session' })).rejects.toThrow(/symlinkDirectories .*not a folder inside the repository/)
})
