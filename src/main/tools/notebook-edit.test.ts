import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { makeTestWorld } from '../../../test/support/tools'
import { decisionForEdit } from '../governance/approvals/edit-approval'
import { editTool } from './edit'
import { notebookEditTool } from './notebook-edit'
import { readTool } from './read'
import { runToolCall } from './run-tool'

/** A small nbformat 4.5 notebook: a markdown cell, a code cell with a stream output and a PNG. */
function notebook(): object {
  return {
    cells: [
      { cell_type: 'markdown', id: 'intro', metadata: {}, source: ['# Title\n', 'Some text'] },
      {
        cell_type: 'code',
        id: 'calc',
        metadata: {},
        execution_count: 3,
        source: 'x = 1\nprint(x)',
        outputs: [
          { output_type: 'stream', name: 'stdout', text: ['1\n'] },
          { output_type: 'display_data', data: { 'image/png': 'iVBORw0KGgo=', 'text/plain': ['<Figure>'] }, metadata: {} },
        ],
      },
    ],
    metadata: { language_info: { name: 'python' } },
    nbformat: 4,
    nbformat_minor: 5,
  }
}

describe('NotebookEdit and Read of a notebook', () => {
  let world: ReturnType<typeof makeTestWorld>
  let file: string
  beforeEach(() => {
    world = makeTestWorld()
    file = join(world.project, 'analysis.ipynb')
    writeFileSync(file, `${JSON.stringify(notebook(), null, 1)}\n`)
  })
  afterEach(() => world.cleanup())

  const edit = (input: Record<string, unknown>) => runToolCall(notebookEditTool, { notebook_path: file, ...input }, world.ctx())
  const stored = () => JSON.parse(readFileSync(file, 'utf8')) as { cells: Array<{ id?: string; cell_type: string; source: string | string[]; outputs?: unknown[]; execution_count?: unknown }> }

  it('Read shows the cells as Claude Code does, outputs and images included', async () => {
    const result = await runToolCall(readTool, { file_path: file }, world.ctx())
    expect(result.isError).toBeFalsy()
    const blocks = result.content as Array<{ type: string; text?: string; source?: { media_type: string } }>
    expect(blocks[0]).toEqual({ type: 'text', text: '<cell id="intro"><cell_type>markdown</cell_type># Title\nSome text</cell id="intro">\n<cell id="calc">x = 1\nprint(x)</cell id="calc">\n\n1\n\n\n<Figure>' })
    expect(blocks[1]).toMatchObject({ type: 'image', source: { media_type: 'image/png' } })
  })

  it('refuses a notebook that was not read, and one changed since', async () => {
    const unread = await edit({ cell_id: 'calc', new_source: 'x = 2' })
    expect(unread.isError).toBe(true)
    expect(String(unread.content)).toContain('has not been read yet')
    await runToolCall(readTool, { file_path: file }, world.ctx())
    writeFileSync(file, `${JSON.stringify({ ...notebook(), nbformat_minor: 4 }, null, 1)}\n`)
    const changed = await edit({ cell_id: 'calc', new_source: 'x = 2' })
    expect(String(changed.content)).toContain('modified since read')
    expect(stored().cells[1]!.source).toBe('x = 1\nprint(x)')
  })

  it('replaces, inserts and deletes cells with Claude Code wording', async () => {
    await runToolCall(readTool, { file_path: file }, world.ctx())
    const replaced = await edit({ cell_id: 'calc', new_source: 'x = 2' })
    expect(replaced.content).toBe('Updated cell calc with x = 2')
    expect(replaced.details).toMatchObject({ filePath: file, before: 'x = 1\nprint(x)', after: 'x = 2' })
    // The stale outputs go with the old source.
    expect(stored().cells[1]).toMatchObject({ source: 'x = 2', outputs: [], execution_count: null })
    const inserted = await edit({ cell_id: 'intro', edit_mode: 'insert', cell_type: 'markdown', new_source: 'More' })
    expect(String(inserted.content)).toMatch(/^Inserted cell [0-9a-f]{8} with More$/)
    expect(stored().cells.map((cell) => cell.cell_type)).toEqual(['markdown', 'markdown', 'code'])
    // Without an id the cell is found by its index.
    expect((await edit({ cell_id: 'cell-1', edit_mode: 'delete', new_source: '' })).content).toBe('Deleted cell cell-1')
    expect(stored().cells.map((cell) => cell.id)).toEqual(['intro', 'calc'])
    expect(readFileSync(file, 'utf8').endsWith('}\n')).toBe(true)
  })

  it('refuses bad input with clear errors, writing nothing', async () => {
    await runToolCall(readTool, { file_path: file }, world.ctx())
    const before = readFileSync(file, 'utf8')
    expect(String((await edit({ cell_id: 'nope', new_source: 'x' })).content)).toContain('Cell with ID "nope" not found in notebook.')
    expect(String((await edit({ new_source: 'x' })).content)).toContain('Cell ID must be specified')
    expect(String((await edit({ edit_mode: 'insert', new_source: 'x' })).content)).toContain('Cell type is required when using edit_mode=insert.')
    expect(String((await runToolCall(notebookEditTool, { notebook_path: 'rel.ipynb', new_source: 'x' }, world.ctx())).content)).toContain('must be an absolute path')
    const text = join(world.project, 'notes.txt')
    writeFileSync(text, 'x')
    expect(String((await runToolCall(notebookEditTool, { notebook_path: text, cell_id: 'a', new_source: 'x' }, world.ctx())).content)).toContain('must be a Jupyter notebook')
    expect(readFileSync(file, 'utf8')).toBe(before)
    // Edit sends the model to NotebookEdit rather than editing the JSON as text.
    expect(String((await runToolCall(editTool, { file_path: file, old_string: 'x = 1', new_string: 'x = 9' }, world.ctx())).content)).toContain('Use the NotebookEdit')
  })

  it("previews the notebook's JSON; an approval that breaks the JSON writes nothing", async () => {
    await runToolCall(readTool, { file_path: file }, world.ctx())
    const preview = await notebookEditTool.preview!({ notebook_path: file, cell_id: 'calc', new_source: 'x = 2' }, world.ctx())
    expect(preview).toMatchObject({ kind: 'diff', filePath: file, before: readFileSync(file, 'utf8') })
    expect(JSON.parse((preview as { after: string }).after).cells[1].source).toBe('x = 2')
    const broken = decisionForEdit(preview, { finalContent: '{"cells": [', hunks: [] })
    expect(broken).toMatchObject({ behavior: 'deny' })
    expect((broken as { message: string }).message).toContain('not a valid notebook')
  })
})
