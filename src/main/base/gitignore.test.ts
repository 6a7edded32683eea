import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { GitignoreMatcher, gitignoreRoot } from './gitignore'

let root: string
const put = (path: string, text = ''): void => {
  mkdirSync(dirname(join(root, path)), { recursive: true })
  writeFileSync(join(root, path), text)
}

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'sous-gitignore-'))
})
afterEach(() => rmSync(root, { recursive: true, force: true }))

describe('GitignoreMatcher', () => {
  it('applies each folder’s .gitignore below it, the deepest matching pattern deciding', async () => {
    put('.gitignore', '*.log\nbuild/\n/only-root.txt\n')
    put('src/.gitignore', '!keep.log\ngenerated.ts\n')
    const matcher = new GitignoreMatcher(root)
    expect(await matcher.ignores('debug.log', false)).toBe(true)
    expect(await matcher.ignores('src/debug.log', false)).toBe(true)
    // A nested negation re-includes what the root ignored.
    expect(await matcher.ignores('src/keep.log', false)).toBe(false)
    expect(await matcher.ignores('keep.log', false)).toBe(true)
    expect(await matcher.ignores('src/generated.ts', false)).toBe(true)
    expect(await matcher.ignores('generated.ts', false)).toBe(false)
    // Anchored patterns are anchored to their own folder.
    expect(await matcher.ignores('only-root.txt', false)).toBe(true)
    expect(await matcher.ignores('src/only-root.txt', false)).toBe(false)
    // `build/` matches folders only.
    expect(await matcher.ignores('build', true)).toBe(true)
    expect(await matcher.ignores('build', false)).toBe(false)
  })

  it('never re-includes a file inside an ignored folder (as git), even by a deeper negation', async () => {
    put('.gitignore', 'out/\n!out/kept.txt\n')
    put('out/.gitignore', '!kept.txt\n')
    const matcher = new GitignoreMatcher(root)
    expect(await matcher.ignores('out/kept.txt', false)).toBe(true)
    expect(await matcher.ignores('out/deeper/file.txt', false)).toBe(true)
  })

  it('answers for absolute paths, and never ignores a path outside its root', async () => {
    put('.gitignore', '*.tmp\n')
    const matcher = new GitignoreMatcher(join(root, 'project'))
    put('project/.gitignore', '*.bak\n')
    expect(await matcher.ignoresAbsolute(join(root, 'project', 'a.bak'), false)).toBe(true)
    // The parent's .gitignore is above the matcher's root: not applied.
    expect(await matcher.ignoresAbsolute(join(root, 'project', 'a.tmp'), false)).toBe(false)
    expect(await matcher.ignoresAbsolute(join(root, 'elsewhere.bak'), false)).toBe(false)
  })
})

describe('gitignoreRoot', () => {
  it('is the project root, else the nearest folder holding .git, else the folder itself', async () => {
    mkdirSync(join(root, 'repo', '.git'), { recursive: true })
    mkdirSync(join(root, 'repo', 'project', 'src'), { recursive: true })
    mkdirSync(join(root, 'loose', 'folder'), { recursive: true })
    expect(await gitignoreRoot(join(root, 'repo', 'project', 'src'), join(root, 'repo', 'project'))).toBe(join(root, 'repo', 'project'))
    expect(await gitignoreRoot(join(root, 'repo', 'project', 'src'), '/somewhere/else')).toBe(join(root, 'repo'))
    expect(await gitignoreRoot(join(root, 'loose', 'folder'), '/somewhere/else')).toBe(join(root, 'loose', 'folder'))
  })
})
