import { readFileSync, utimesSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { editTool } from './edit'
import { readTool } from './read'
import { runToolCall } from './run-tool'
import { makeTestWorld } from '../../../test/support/tools'
import { writeTool } from './write'

describe('Edit and Write', () => {
  let world: ReturnType<typeof makeTestWorld>
  let file: string
  beforeEach(() => {
    world = makeTestWorld()
    file = join(world.project, 'app.ts')
    writeFileSync(file, 'const a = 1\nconst b = 2\nconst a2 = 1\n')
  })
  afterEach(() => world.cleanup())

  const read = (path = file) => runToolCall(readTool, { file_path: path }, world.ctx())

  it('refuses to edit a file that was not read', async () => {
    const result = await runToolCall(editTool, { file_path: file, old_string: 'b = 2', new_string: 'b = 3' }, world.ctx())
    expect(result.isError).toBe(true)
    expect(String(result.content)).toContain('has not been read yet')
    expect(readFileSync(file, 'utf8')).toContain('b = 2')
  })

  it('replaces a unique match and shows a numbered snippet', async () => {
    await read()
    const result = await runToolCall(editTool, { file_path: file, old_string: 'b = 2', new_string: 'b = 3' }, world.ctx())
    expect(result.isError).toBeFalsy()
    expect(readFileSync(file, 'utf8')).toBe('const a = 1\nconst b = 3\nconst a2 = 1\n')
    expect(String(result.content)).toContain('2\tconst b = 3')
    // A second edit works without reading again: Edit records what it wrote.
    expect((await runToolCall(editTool, { file_path: file, old_string: 'b = 3', new_string: 'b = 4' }, world.ctx())).isError).toBeFalsy()
  })

  it('says how many matches a non-unique string has, and replaces all when asked', async () => {
    await read()
    const ambiguous = await runToolCall(editTool, { file_path: file, old_string: '= 1', new_string: '= 9' }, world.ctx())
    expect(String(ambiguous.content)).toContain('Found 2 matches')
    const all = await runToolCall(editTool, { file_path: file, old_string: '= 1', new_string: '= 9', replace_all: true }, world.ctx())
    expect(all.isError).toBeFalsy()
    expect(readFileSync(file, 'utf8')).toBe('const a = 9\nconst b = 2\nconst a2 = 9\n')
  })

  it('rejects identical strings and missing text', async () => {
    await read()
    expect(String((await runToolCall(editTool, { file_path: file, old_string: 'x', new_string: 'x' }, world.ctx())).content)).toContain('exactly the same')
    expect(String((await runToolCall(editTool, { file_path: file, old_string: 'nope', new_string: 'x' }, world.ctx())).content)).toContain('not found')
  })

  it('refuses when the file changed on disk since it was read', async () => {
    await read()
    writeFileSync(file, 'const a = 1\nconst b = 22\nconst a2 = 1\n')
    utimesSync(file, new Date(), new Date(Date.now() + 5000))
    const result = await runToolCall(editTool, { file_path: file, old_string: 'b = 22', new_string: 'b = 3' }, world.ctx())
    expect(String(result.content)).toContain('File has been modified since read')
    expect(String((await runToolCall(writeTool, { file_path: file, content: 'x' }, world.ctx())).content)).toContain('modified since read')
  })

  it('allows a touch that changed nothing', async () => {
    await read()
    utimesSync(file, new Date(), new Date(Date.now() + 5000))
    expect((await runToolCall(editTool, { file_path: file, old_string: 'b = 2', new_string: 'b = 3' }, world.ctx())).isError).toBeFalsy()
  })

  it('keeps CRLF line endings and a UTF-8 BOM', async () => {
    const crlf = join(world.project, 'win.txt')
    writeFileSync(crlf, Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('alpha\r\nbeta\r\ngamma\r\n')]))
    await read(crlf)
    const result = await runToolCall(editTool, { file_path: crlf, old_string: 'beta\ngamma', new_string: 'BETA\nGAMMA\ndelta' }, world.ctx())
    expect(result.isError).toBeFalsy()
    const bytes = readFileSync(crlf)
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf])
    expect(bytes.subarray(3).toString('utf8')).toBe('alpha\r\nBETA\r\nGAMMA\r\ndelta\r\n')
  })

  it('keeps UTF-16LE', async () => {
    const wide = join(world.project, 'wide.txt')
    writeFileSync(wide, Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('héllo\nwörld\n', 'utf16le')]))
    expect(String((await read(wide)).content)).toBe('1\théllo\n2\twörld')
    await runToolCall(editTool, { file_path: wide, old_string: 'wörld', new_string: 'welt' }, world.ctx())
    expect(readFileSync(wide).subarray(2).toString('utf16le')).toBe('héllo\nwelt\n')
  })

  it('previews the change as a diff without writing', async () => {
    await read()
    const preview = await editTool.preview!({ file_path: file, old_string: 'b = 2', new_string: 'b = 3' }, world.ctx())
    expect(preview).toEqual({ kind: 'diff', filePath: file, before: 'const a = 1\nconst b = 2\nconst a2 = 1\n', after: 'const a = 1\nconst b = 3\nconst a2 = 1\n' })
    expect(readFileSync(file, 'utf8')).toContain('b = 2')
  })

  it('writes a new file without a read, creating folders, and refuses to overwrite unread files', async () => {
    const fresh = join(world.project, 'deep', 'new.txt')
    const created = await runToolCall(writeTool, { file_path: fresh, content: 'hello\n' }, world.ctx())
    expect(String(created.content)).toContain('created')
    expect(readFileSync(fresh, 'utf8')).toBe('hello\n')
    const overwrite = await runToolCall(writeTool, { file_path: file, content: 'x' }, world.ctx())
    expect(overwrite.isError).toBe(true)
    await read()
    expect((await runToolCall(writeTool, { file_path: file, content: 'x' }, world.ctx())).isError).toBeFalsy()
    expect(readFileSync(file, 'utf8')).toBe('x')
  })

  it('fails closed without a file-state cache', async () => {
    const ctx = { ...world.ctx(), fileState: undefined }
    const result = await runToolCall(writeTool, { file_path: file, content: 'x' }, ctx)
    expect(result.isError).toBe(true)
  })
})
