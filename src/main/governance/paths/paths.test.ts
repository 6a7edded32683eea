import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { isInsideRoots, placeOf } from './place'
import { realPathOf } from './real-path'
import { expandTilde } from './tilde'

let base: string
let project: string

beforeAll(() => {
  base = realpathSync(mkdtempSync(join(tmpdir(), 'sous-paths-')))
  project = join(base, 'project')
  for (const dir of [join(project, 'src'), join(project, '.claude'), join(base, 'outside')]) mkdirSync(dir, { recursive: true })
  writeFileSync(join(base, 'outside', 'secret.txt'), 'x')
  symlinkSync('../outside', join(project, 'out'))
  symlinkSync('.claude', join(project, 'cfg'))
  symlinkSync(join(base, 'outside', 'missing'), join(project, 'dangling'))
  symlinkSync('src', join(project, 'srcl'))
  symlinkSync('a', join(project, 'b'))
  symlinkSync('b', join(project, 'a'))
})
afterAll(() => rmSync(base, { recursive: true, force: true }))

describe('realPathOf (real symlinks)', () => {
  it('follows a link before a later `..`, as the kernel does', () => {
    expect(realPathOf('out/../outside/secret.txt', project)).toBe(join(base, 'outside', 'secret.txt'))
    expect(realPathOf('srcl/../.claude', project)).toBe(join(project, '.claude'))
  })

  it("leads a dangling link to its target, and appends what does not exist yet", () => {
    expect(realPathOf('dangling', project)).toBe(join(base, 'outside', 'missing'))
    expect(realPathOf('cfg/settings.local.json', project)).toBe(join(project, '.claude', 'settings.local.json'))
    expect(realPathOf('new/dir/../file', project)).toBe(join(project, 'new', 'file'))
  })

  it('gives up on a loop', () => {
    expect(realPathOf('a/x', project)).toBeUndefined()
  })

  it('places a file tool path by both spellings, and only inside when both are', () => {
    const place = placeOf(join(project, 'out', 'secret.txt'), project, '/home/u')
    expect(place).toEqual({ path: join(project, 'out', 'secret.txt'), real: join(base, 'outside', 'secret.txt') })
    expect(isInsideRoots(place, [project])).toBe(false)
    expect(isInsideRoots(placeOf('srcl/a.ts', project, '/home/u'), [project])).toBe(true)
  })
})

describe('expandTilde', () => {
  const context = { home: '/home/u', cwd: '/p', previousCwd: undefined }
  it.each([
    ['~', '/home/u'], ['~/x', '/home/u/x'], ['~+/x', '/p/x'], ['~+', '/p'],
    ['~-/x', undefined], ['~root/x', undefined], ['~+1/x', undefined], ['~-2', undefined], ['~nosuchuser', undefined],
  ])('%s → %s', (word, expected) => {
    expect(expandTilde(word, context)).toBe(expected)
  })

  it('keeps `..` for the real-path walk instead of normalizing it', () => {
    expect(expandTilde('~/link/../x', context)).toBe('/home/u/link/../x')
  })
})
