import { mkdirSync, utimesSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { globTool } from './glob'
import { grepTool } from './grep'
import { runToolCall } from './run-tool'
import { makeTestWorld } from '../../../test/support/tools'

describe('Glob and Grep', () => {
  let world: ReturnType<typeof makeTestWorld>
  const at = (...parts: string[]) => join(world.project, ...parts)

  beforeEach(() => {
    world = makeTestWorld()
    mkdirSync(at('.git'))
    mkdirSync(at('src', 'deep'), { recursive: true })
    mkdirSync(at('build'))
    mkdirSync(at('node_modules', 'pkg'), { recursive: true })
    writeFileSync(at('.gitignore'), 'build/\n*.log\nnode_modules/\n')
    writeFileSync(at('src', '.gitignore'), 'secret.ts\n')
    writeFileSync(at('src', 'old.ts'), 'export const needle = 1\n')
    writeFileSync(at('src', 'deep', 'new.ts'), 'const Needle = 2\nconst other = 3\nneedle again\n')
    writeFileSync(at('src', 'secret.ts'), 'needle\n')
    writeFileSync(at('build', 'out.ts'), 'needle\n')
    writeFileSync(at('debug.log'), 'needle\n')
    writeFileSync(at('node_modules', 'pkg', 'index.ts'), 'needle\n')
    writeFileSync(at('notes.md'), 'no match here\n')
    utimesSync(at('src', 'old.ts'), new Date(1_000_000_000_000), new Date(1_000_000_000_000))
  })
  afterEach(() => world.cleanup())

  it('Glob finds files newest first and respects .gitignore at every level', async () => {
    const result = await runToolCall(globTool, { pattern: '**/*.ts' }, world.ctx())
    expect(String(result.content).split('\n')).toEqual([at('src', 'deep', 'new.ts'), at('src', 'old.ts')])
  })

  it('Glob searches a given path, reports none, and caps at 100', async () => {
    expect(String((await runToolCall(globTool, { pattern: '*.ts', path: at('src') }, world.ctx())).content)).toBe(at('src', 'old.ts'))
    expect(String((await runToolCall(globTool, { pattern: '*.rs' }, world.ctx())).content)).toBe('No files found')
    mkdirSync(at('many'))
    for (let i = 0; i < 120; i++) writeFileSync(at('many', `f${i}.txt`), '')
    const capped = String((await runToolCall(globTool, { pattern: 'many/*.txt' }, world.ctx())).content)
    expect(capped.split('\n').filter((line) => line.startsWith('/'))).toHaveLength(100)
    expect(capped).toContain('showing 100 of 120')
    expect((await runToolCall(globTool, { pattern: '*', path: at('missing') }, world.ctx())).isError).toBe(true)
  })

  it('Grep lists matching files by default, honouring .gitignore', async () => {
    const result = await runToolCall(grepTool, { pattern: 'needle' }, world.ctx())
    expect(String(result.content)).toBe(`Found 2 files\n${at('src', 'deep', 'new.ts')}\n${at('src', 'old.ts')}`)
  })

  it('Grep shows content with line numbers, context, case folding and head_limit', async () => {
    const content = String((await runToolCall(grepTool, { pattern: 'needle', output_mode: 'content', '-i': true, path: at('src', 'deep') }, world.ctx())).content)
    expect(content).toBe(`${at('src', 'deep', 'new.ts')}:1:const Needle = 2\n${at('src', 'deep', 'new.ts')}:3:needle again`)
    const context = String((await runToolCall(grepTool, { pattern: 'other', output_mode: 'content', '-B': 1, path: at('src') }, world.ctx())).content)
    expect(context).toContain('-1-const Needle = 2')
    const limited = String((await runToolCall(grepTool, { pattern: 'e', output_mode: 'content', head_limit: 1, path: at('src', 'deep') }, world.ctx())).content)
    expect(limited).toContain('Showing the first 1 of 3 lines')
  })

  it('Grep counts, filters by glob and type, and matches across lines', async () => {
    const count = String((await runToolCall(grepTool, { pattern: 'needle', output_mode: 'count', '-i': true }, world.ctx())).content)
    expect(count).toContain(`${at('src', 'deep', 'new.ts')}:2`)
    expect(count).toContain('Found 3 total occurrences across 2 files.')
    expect(String((await runToolCall(grepTool, { pattern: 'needle', glob: '*.md' }, world.ctx())).content)).toBe('No files found')
    expect(String((await runToolCall(grepTool, { pattern: 'needle', type: 'ts' }, world.ctx())).content)).toContain('Found 2 files')
    const multi = String((await runToolCall(grepTool, { pattern: 'Needle = 2.const other', multiline: true }, world.ctx())).content)
    expect(multi).toContain('Found 1 file')
  })

  it('Grep reports a bad regex clearly', async () => {
    const bad = await runToolCall(grepTool, { pattern: '(unclosed' }, world.ctx())
    expect(bad.isError).toBe(true)
    expect(String(bad.content)).toMatch(/Grep failed: .*regex/is)
  })

  it('Grep runs the bundled ripgrep, with no rg on PATH', async () => {
    const path = process.env.PATH
    process.env.PATH = '/nonexistent'
    try {
      const result = await runToolCall(grepTool, { pattern: 'needle' }, world.ctx())
      expect(result.isError).toBeFalsy()
      expect(String(result.content)).toContain('Found 2 files')
    } finally {
      process.env.PATH = path
    }
  })
})
