import { randomUUID } from 'node:crypto'
import { stat } from 'node:fs/promises'
import { extname } from 'node:path'
import { z } from 'zod'
import { defineTool, errorResult } from './define-tool'
import { readTextFile, writeTextFile, type TextFormat } from './file-codec'
import { findCell, languageOf, parseNotebook, serializeNotebook, sourceOf, type NotebookCell } from './notebook'
import description from './notebook-edit.prompt'
import { requireAbsolute } from './paths'
import type { ToolPreview } from './types'
import { writableProblem } from './write'

const input = z.strictObject({
  notebook_path: z.string().describe('The absolute path to the Jupyter notebook file to edit (must be absolute, not relative)'),
  cell_id: z.string().optional().describe('The ID of the cell to edit. When inserting a new cell, the new cell will be inserted after the cell with this ID, or at the beginning if not specified.'),
  new_source: z.string().describe('The new source for the cell'),
  cell_type: z.enum(['code', 'markdown']).optional().describe('The type of the cell (code or markdown). If not specified, it defaults to the current cell type. If using edit_mode=insert, this is required.'),
  edit_mode: z.enum(['replace', 'insert', 'delete']).optional().describe('The type of edit to make (replace, insert, delete). Defaults to replace.'),
})
type NotebookEditInput = z.output<typeof input>

/** What an edit would write: the whole notebook before and after, and what the result names. */
type Planned =
  | { ok: true; before: string; after: string; format: TextFormat; cellId: string | undefined; cellType: 'code' | 'markdown'; oldSource?: string; language: string }
  | { ok: false; message: string }

/**
 * NotebookEdit (Claude Code's): replaces, inserts or deletes one cell of a `.ipynb`. A file edit
 * for permissions (Edit rules and acceptEdits cover it), read before edit as Edit is, and its
 * approval shows the notebook's JSON as it would be written, so a hunk deselected there is a
 * change to the file itself (governance refuses a result that is no longer JSON).
 */
export const notebookEditTool = defineTool({
  name: 'NotebookEdit',
  label: 'Edit Notebook',
  description,
  input,
  summarize: (args) => `NotebookEdit ${args.notebook_path}`,
  async validate(args, ctx) {
    const relative = requireAbsolute(args.notebook_path, 'notebook_path')
    if (relative) return relative
    if (extname(args.notebook_path) !== '.ipynb') return 'File must be a Jupyter notebook (.ipynb file). For editing other file types, use the Edit tool.'
    if ((args.edit_mode ?? 'replace') === 'insert' && !args.cell_type) return 'Cell type is required when using edit_mode=insert.'
    const exists = await stat(args.notebook_path).then(() => true, () => false)
    if (!exists) return 'Notebook file does not exist.'
    const problem = await writableProblem(args.notebook_path, ctx)
    if (problem) return problem
    const plan = await planNotebookEdit(args)
    return plan.ok ? undefined : plan.message
  },
  async preview(args): Promise<ToolPreview | undefined> {
    const plan = await planNotebookEdit(args)
    return plan.ok ? { kind: 'diff', filePath: args.notebook_path, before: plan.before, after: plan.after } : undefined
  },
  async execute(args, ctx) {
    const plan = await planNotebookEdit(args)
    if (!plan.ok) return errorResult(plan.message)
    const written = await writeTextFile(args.notebook_path, plan.after, plan.format)
    ctx.fileState?.record(args.notebook_path, written, (await stat(args.notebook_path)).mtimeMs)
    const mode = args.edit_mode ?? 'replace'
    const content =
      mode === 'replace' ? `Updated cell ${plan.cellId} with ${args.new_source}` : mode === 'insert' ? `Inserted ${plan.cellId ? `cell ${plan.cellId}` : 'a new cell'} with ${args.new_source}` : `Deleted cell ${plan.cellId}`
    return {
      content,
      // before/after are the cell's source, so the card's diff is the cell's; the notebook's JSON is what the approval showed.
      details: {
        filePath: args.notebook_path,
        editMode: mode,
        cellId: plan.cellId,
        cellType: plan.cellType,
        language: plan.language,
        before: plan.oldSource ?? '',
        after: mode === 'delete' ? '' : args.new_source,
      },
    }
  },
})

/** Computes the new notebook without writing (shared by preview and execute, so approval shows what runs). */
async function planNotebookEdit(args: NotebookEditInput): Promise<Planned> {
  let file
  try {
    file = await readTextFile(args.notebook_path)
  } catch {
    return { ok: false, message: 'Notebook file does not exist.' }
  }
  const notebook = parseNotebook(file.text)
  if (typeof notebook === 'string') return { ok: false, message: notebook.startsWith('Notebook file is not valid JSON') ? 'Notebook is not valid JSON.' : notebook }
  const mode = args.edit_mode ?? 'replace'
  const at = findCell(notebook.cells, args.cell_id, mode === 'insert')
  if (typeof at === 'string') return { ok: false, message: at }
  const language = languageOf(notebook)
  let cellId = args.cell_id
  let cellType: 'code' | 'markdown' = args.cell_type ?? 'code'
  let oldSource: string | undefined
  if (mode === 'delete') {
    const [removed] = notebook.cells.splice(at, 1)
    oldSource = sourceOf(removed!)
  } else if (mode === 'insert') {
    // Cell ids exist from nbformat 4.5 on; an older notebook's new cell has none, as Claude Code's.
    const withIds = (notebook.nbformat ?? 0) > 4 || (notebook.nbformat === 4 && (notebook.nbformat_minor ?? 0) >= 5)
    cellId = withIds ? randomUUID().slice(0, 8) : undefined
    const cell: NotebookCell =
      args.cell_type === 'markdown'
        ? { cell_type: 'markdown', ...(cellId && { id: cellId }), source: args.new_source, metadata: {} }
        : { cell_type: 'code', ...(cellId && { id: cellId }), source: args.new_source, metadata: {}, execution_count: null, outputs: [] }
    notebook.cells.splice(at, 0, cell)
  } else {
    const cell = notebook.cells[at]!
    oldSource = sourceOf(cell)
    cell.source = args.new_source
    // The old outputs were of the old source.
    if (cell.cell_type === 'code') {
      cell.execution_count = null
      cell.outputs = []
    }
    if (args.cell_type && args.cell_type !== cell.cell_type) cell.cell_type = args.cell_type
    cellType = cell.cell_type === 'markdown' ? 'markdown' : 'code'
  }
  return { ok: true, before: file.text, after: serializeNotebook(notebook, file.text), format: file.format, cellId, cellType, language, ...(oldSource !== undefined && { oldSource }) }
}
