import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { readTool } from './read'
import { runToolCall } from './run-tool'
import { makeTestWorld } from '../../../test/support/tools'

const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64')

describe('Read', () => {
  let world: ReturnType<typeof makeTestWorld>
  beforeEach(() => {
    world = makeTestWorld()
  })
  afterEach(() => world.cleanup())

  it('returns numbered lines and records the file for Edit', async () => {
    const file = join(world.project, 'a.ts')
    writeFileSync(file, 'one\ntwo\r\nthree\n')
    const result = await runToolCall(readTool, { file_path: file }, world.ctx())
    expect(result.content).toBe('1\tone\n2\ttwo\n3\tthree')
    expect(world.session.fileState.get(file)).toBeDefined()
  })

  it('honours offset and limit and says what is left', async () => {
    const file = join(world.project, 'long.txt')
    writeFileSync(file, Array.from({ length: 3000 }, (_, i) => `line ${i + 1}`).join('\n'))
    const first = String((await runToolCall(readTool, { file_path: file }, world.ctx())).content)
    expect(first.split('\n')[1999]).toBe('2000\tline 2000')
    expect(first).toContain('Showing lines 1-2000 of 3000')
    const part = String((await runToolCall(readTool, { file_path: file, offset: 2999, limit: 5 }, world.ctx())).content)
    expect(part).toBe('2999\tline 2999\n3000\tline 3000')
    const past = await runToolCall(readTool, { file_path: file, offset: 5000 }, world.ctx())
    expect(String(past.content)).toContain('past its end')
  })

  it('allow_large (Claude Code 2.1.328) reads past the default line limit and the usual size cap, up to its own', async () => {
    const file = join(world.project, 'big.txt')
    // 3000 lines of ~60 characters: over 2000 lines and over the 100,000-character cap.
    writeFileSync(file, Array.from({ length: 3000 }, (_, i) => `line ${i + 1} ${'x'.repeat(50)}`).join('\n'))
    const usual = await runToolCall(readTool, { file_path: file, limit: 3000 }, world.ctx())
    expect(usual.isError).toBe(true)
    expect(String(usual.content)).toContain('allow_large')
    const large = await runToolCall(readTool, { file_path: file, allow_large: true }, world.ctx())
    expect(large.isError).toBeFalsy()
    expect(String(large.content).split('\n')).toHaveLength(3000)
    writeFileSync(file, Array.from({ length: 9000 }, () => 'y'.repeat(60)).join('\n'))
    const tooLarge = await runToolCall(readTool, { file_path: file, allow_large: true }, world.ctx())
    expect(tooLarge.isError).toBe(true)
    expect(String(tooLarge.content)).toContain('Even with allow_large')
  })

  it('cuts lines over 2000 characters', async () => {
    const file = join(world.project, 'wide.txt')
    writeFileSync(file, 'x'.repeat(5000))
    const out = String((await runToolCall(readTool, { file_path: file }, world.ctx())).content)
    expect(out).toBe(`1\t${'x'.repeat(2000)}... [line truncated]`)
  })

  it('returns images as base64 image blocks', async () => {
    const file = join(world.project, 'dot.png')
    writeFileSync(file, PNG)
    const result = await runToolCall(readTool, { file_path: file }, world.ctx())
    expect(result.content).toEqual([{ type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG.toString('base64') } }])
  })

  it('refuses binary files, notes empty ones, refuses PDFs and directories', async () => {
    writeFileSync(join(world.project, 'blob.bin'), Buffer.from([1, 2, 0, 3]))
    writeFileSync(join(world.project, 'empty.txt'), '')
    writeFileSync(join(world.project, 'doc.pdf'), '%PDF-1.4')
    const bin = await runToolCall(readTool, { file_path: join(world.project, 'blob.bin') }, world.ctx())
    expect(bin.isError).toBe(true)
    expect(String(bin.content)).toContain('binary')
    expect(String((await runToolCall(readTool, { file_path: join(world.project, 'empty.txt') }, world.ctx())).content)).toContain('contents are empty')
    expect(String((await runToolCall(readTool, { file_path: join(world.project, 'doc.pdf') }, world.ctx())).content)).toContain('PDF reading is not supported yet')
    expect(String((await runToolCall(readTool, { file_path: world.project }, world.ctx())).content)).toContain('is a directory')
  })

  it('suggests a similar name for a missing file and requires absolute paths', async () => {
    writeFileSync(join(world.project, 'config.json'), '{}')
    const missing = await runToolCall(readTool, { file_path: join(world.project, 'config.jsn') }, world.ctx())
    expect(missing.isError).toBe(true)
    expect(String(missing.content)).toContain(`Did you mean ${join(world.project, 'config.json')}?`)
    const relative = await runToolCall(readTool, { file_path: 'config.json' }, world.ctx())
    expect(String(relative.content)).toContain('must be an absolute path')
  })
})
