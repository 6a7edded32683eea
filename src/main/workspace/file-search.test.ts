import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { FileSearch, walkProject } from './file-search'
import { listWithRipgrep } from './ripgrep-list'

let root: string
let outside: string
beforeEach(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), 'sous-search-')))
  outside = await realpath(await mkdtemp(join(tmpdir(), 'sous-search-out-')))
  await writeFile(join(root, '.gitignore'), 'build/\n*.log\n')
  await mkdir(join(root, 'src', 'gen'), { recursive: true })
  await mkdir(join(root, 'src', 'main'), { recursive: true })
  await mkdir(join(root, 'build'))
  await mkdir(join(root, '.git'))
  await writeFile(join(root, '.git', 'HEAD'), 'ref: refs/heads/main\n')
  await writeFile(join(root, 'src', '.gitignore'), 'gen/\n')
  await writeFile(join(root, 'src', 'main', 'core.ts'), '')
  await writeFile(join(root, 'src', 'gen', 'core.ts'), '')
  await writeFile(join(root, 'build', 'core.js'), '')
  await writeFile(join(root, 'core.log'), '')
  await writeFile(join(root, 'README.md'), '')
  await writeFile(join(outside, 'core-secret.ts'), '')
})
afterEach(async () => {
  await rm(root, { recursive: true, force: true })
  await rm(outside, { recursive: true, force: true })
})

describe('walkProject', () => {
  it('lists files and folders breadth first, leaving out .git and what .gitignore files ignore', async () => {
    expect(await walkProject(root)).toEqual(['.gitignore', 'README.md', 'src/', 'src/.gitignore', 'src/main/', 'src/main/core.ts'])
  })

  it('leaves out links that lead outside, and does not enter linked folders inside', async () => {
    await symlink(outside, join(root, 'out'))
    await symlink(join(root, 'src'), join(root, 'again'))
    const paths = await walkProject(root)
    expect(paths).toContain('again/')
    expect(paths.some((path) => path.startsWith('out') || path.startsWith('again/main'))).toBe(false)
  })

  it('stops at the entry bound, keeping the shallow entries', async () => {
    expect(await walkProject(root, { maxEntries: 3, timeMs: 60_000 })).toEqual(['.gitignore', 'README.md', 'src/'])
  })
})

describe('FileSearch', () => {
  it('answers the best matches first, capped', async () => {
    const search = new FileSearch()
    // src/gen/core.ts and build/core.js are ignored; the loose (fuzzy) match comes last.
    expect(await search.search(root, 'core', 20)).toEqual(['src/main/core.ts', 'src/.gitignore'])
    expect(await search.search(root, 'src/m', 20)).toEqual(['src/main/', 'src/main/core.ts'])
    expect(await search.search(root, '', 2)).toEqual(['src/', 'README.md'])
  })

  it('refuses queries that reach outside the project', async () => {
    const search = new FileSearch()
    for (const query of ['../x', '/etc/passwd', 'src/../../x', 'C:\\x'])
      await expect(search.search(root, query, 20), query).rejects.toMatchObject({ code: 'INVALID_INPUT' })
  })

  it('reuses a recent walk, and walks again once it is old', async () => {
    let now = 0
    const search = new FileSearch(undefined, () => now)
    expect(await search.search(root, 'new', 20)).toEqual([])
    await writeFile(join(root, 'new.ts'), '')
    expect(await search.search(root, 'new', 20)).toEqual([])
    now = 60_000
    expect(await search.search(root, 'new', 20)).toEqual(['new.ts'])
  })
})

describe('listWithRipgrep', () => {
  it('lists what the walk lists, links included, with no rg on PATH', async () => {
    await symlink(outside, join(root, 'out'))
    await symlink(join(root, 'src'), join(root, 'again'))
    await symlink(join(root, 'README.md'), join(root, 'readme-link.md'))
    await mkdir(join(root, 'deep', 'er', 'still'), { recursive: true })
    await writeFile(join(root, 'deep', 'er', 'still', 'found.ts'), '')
    const path = process.env.PATH
    process.env.PATH = '/nonexistent'
    try {
      const listed = await listWithRipgrep(root, { maxEntries: 20_000, timeMs: 10_000 })
      // The same entries (ranking decides the order shown).
      expect([...listed!].sort()).toEqual((await walkProject(root)).sort())
      expect(listed).toEqual(expect.arrayContaining(['again/', 'readme-link.md', 'deep/er/still/found.ts']))
      expect(listed!.some((p) => p.startsWith('out') || p.startsWith('again/main'))).toBe(false)
    } finally {
      process.env.PATH = path
    }
  })
})
