import { mkdirSync, writeFileSync } from 'node:fs'
import { dirname, join, relative } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { makeTestWorld } from '../../../test/support/tools'
import { globTool } from '../tools/glob'
import { runToolCall } from '../tools/run-tool'
import { walkProject } from './file-search'
import { listWithRipgrep } from './ripgrep-list'
import { listFolder } from './files'

/**
 * Glob (the model's view), the file tree (`files.list`, the user's) and `@` completion must agree
 * on what `.gitignore` hides, or the model and the user see different projects.
 */
describe('what .gitignore hides: Glob, the file tree and @ completion agree', () => {
  let world: ReturnType<typeof makeTestWorld>
  const put = (path: string, text = 'x\n'): void => {
    mkdirSync(dirname(join(world.project, path)), { recursive: true })
    writeFileSync(join(world.project, path), text)
  }

  beforeEach(() => {
    world = makeTestWorld()
    put('.gitignore', '*.log\nbuild/\ntmp-*\n!tmp-keep.txt\n')
    put('app/.gitignore', '!important.log\n/local.txt\ncache/\n')
    put('app/lib/.gitignore', '*.ts\n!index.ts\n')
    for (const path of [
      'readme.md',
      'debug.log',
      'tmp-scratch.txt',
      'tmp-keep.txt',
      'build/out.js',
      'build/keep/me.txt',
      'app/important.log',
      'app/other.log',
      'app/local.txt',
      'app/sub/local.txt',
      'app/cache/entry.bin',
      'app/lib/index.ts',
      'app/lib/helper.ts',
      'app/lib/deep/more.ts',
      'app/lib/deep/notes.md',
    ]) {
      put(path)
    }
  })
  afterEach(() => world.cleanup())

  /** Every file the tree shows, opening every folder it lists. */
  async function treeFiles(dir = ''): Promise<string[]> {
    const out: string[] = []
    for (const entry of await listFolder(world.project, dir)) {
      if (entry.kind === 'dir') out.push(...(await treeFiles(entry.path)))
      else out.push(entry.path)
    }
    return out
  }

  it('on nested .gitignore files and negations', async () => {
    const globbed = await runToolCall(globTool, { pattern: '**/*' }, world.ctx())
    const fromGlob = String(globbed.content)
      .split('\n')
      .map((path) => relative(world.project, path))
      .sort()
    const fromTree = (await treeFiles()).sort()
    const fromMentions = (await walkProject(world.project)).filter((path) => !path.endsWith('/')).sort()
    // @ completion lists with the bundled ripgrep first; the walk answers when it cannot run.
    const listed = await listWithRipgrep(world.project, { maxEntries: 20_000, timeMs: 10_000 })
    const fromRipgrep = (listed ?? []).filter((path) => !path.endsWith('/')).sort()
    const expected = [
      '.gitignore',
      'app/.gitignore',
      'app/important.log',
      'app/lib/.gitignore',
      'app/lib/deep/notes.md',
      'app/lib/index.ts',
      'app/sub/local.txt',
      'readme.md',
      'tmp-keep.txt',
    ]
    expect(fromGlob).toEqual(expected)
    expect(fromTree).toEqual(expected)
    expect(fromMentions).toEqual(expected)
    expect(fromRipgrep).toEqual(expected)
  })
})
