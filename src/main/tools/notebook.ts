import type { ImageBlock, TextBlock } from '../services/model/types'

/**
 * Jupyter notebooks (`.ipynb`) as Read shows them and NotebookEdit changes them, worded as
 * Claude Code 2.1.328 words them: each cell `<cell id="…">source</cell id="…">`, a code cell's
 * outputs after it (text, and PNG/JPEG images as image blocks), a cell found by its `id` or, for a
 * notebook without ids, by `cell-<index>`.
 */

/** One cell as the notebook stores it (fields Sous does not read are kept as they are). */
export interface NotebookCell {
  cell_type: string
  id?: string
  source: string | string[]
  execution_count?: number | null
  outputs?: NotebookOutput[]
  metadata?: Record<string, unknown>
  [key: string]: unknown
}

interface NotebookOutput {
  output_type: string
  text?: string | string[]
  data?: Record<string, unknown>
  ename?: string
  evalue?: string
  traceback?: string[]
}

/** A parsed notebook. */
export interface Notebook {
  cells: NotebookCell[]
  metadata?: { language_info?: { name?: string } } & Record<string, unknown>
  nbformat?: number
  nbformat_minor?: number
  [key: string]: unknown
}

/** Claude Code's wording for a file whose cells are not what a notebook holds. */
export const NOT_A_NOTEBOOK = 'Notebook file is not a valid Jupyter notebook (top-level "cells" must be an array of cell objects, each with a string or string-array "source").'

/** Outputs of one cell past this many characters are replaced by a hint (as Claude Code does). */
const MAX_OUTPUT_CHARS = 10_000

/** Parses a notebook's text; a string says why it is not one. */
export function parseNotebook(text: string): Notebook | string {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (error) {
    return `Notebook file is not valid JSON (it may be truncated, corrupted, or still being written): ${(error as Error).message}`
  }
  const cells = (value as { cells?: unknown } | null)?.cells
  const valid =
    Array.isArray(cells) &&
    cells.every((cell) => {
      if (cell === null || typeof cell !== 'object') return false
      const source = (cell as { source?: unknown }).source
      return typeof source === 'string' || (Array.isArray(source) && source.every((line) => typeof line === 'string'))
    })
  return valid ? (value as Notebook) : NOT_A_NOTEBOOK
}

/** The notebook's language (`metadata.language_info.name`, Python when unnamed). */
export function languageOf(notebook: Notebook): string {
  return notebook.metadata?.language_info?.name ?? 'python'
}

/** A cell's source as one string. */
export function sourceOf(cell: NotebookCell): string {
  return Array.isArray(cell.source) ? cell.source.join('') : cell.source
}

/**
 * Where a cell is: its index, or, with `insert`, the index a new cell goes to (after the named
 * cell, first without one). A string is the error for the model.
 */
export function findCell(cells: readonly NotebookCell[], cellId: string | undefined, insert: boolean): number | string {
  if (!cellId) return insert ? 0 : 'Cell ID must be specified when not inserting a new cell.'
  let index = cells.findIndex((cell) => cell.id === cellId)
  if (index === -1) {
    const numbered = /^cell-(\d+)$/.exec(cellId)?.[1]
    if (numbered === undefined) return `Cell with ID "${cellId}" not found in notebook.`
    index = Number.parseInt(numbered, 10)
    if (!cells[index]) return `Cell with index ${index} does not exist in notebook.`
  }
  return insert ? index + 1 : index
}

/** The notebook as NotebookEdit writes it (one-space indent, the file's final newline kept). */
export function serializeNotebook(notebook: Notebook, original: string): string {
  return JSON.stringify(notebook, null, 1) + (original.endsWith('\n') ? '\n' : '')
}

/** The notebook's cells as Read hands them to the model: text blocks (merged) and output images. */
export function notebookForModel(notebook: Notebook): Array<TextBlock | ImageBlock> {
  const language = languageOf(notebook)
  const blocks: Array<TextBlock | ImageBlock> = []
  const push = (block: TextBlock | ImageBlock) => {
    const last = blocks.at(-1)
    if (block.type === 'text' && last?.type === 'text') last.text += `\n${block.text}`
    else blocks.push(block)
  }
  notebook.cells.forEach((cell, index) => {
    const id = cell.id ?? `cell-${index}`
    const tags = [cell.cell_type !== 'code' ? `<cell_type>${cell.cell_type}</cell_type>` : '', cell.cell_type === 'code' && language !== 'python' ? `<language>${language}</language>` : ''].join('')
    push({ type: 'text', text: `<cell id="${id}">${tags}${sourceOf(cell)}</cell id="${id}">` })
    if (cell.cell_type !== 'code' || !cell.outputs?.length) return
    const outputs = cell.outputs.map(outputOf)
    const size = outputs.reduce((sum, output) => sum + (output?.text.length ?? 0) + (output?.image?.data.length ?? 0), 0)
    if (size > MAX_OUTPUT_CHARS) {
      push({ type: 'text', text: `\nOutputs are too large to include. Use Bash with: cat <notebook_path> | jq '.cells[${index}].outputs'` })
      return
    }
    for (const output of outputs) {
      if (!output) continue
      if (output.text) push({ type: 'text', text: `\n${output.text}` })
      if (output.image) push({ type: 'image', source: { type: 'base64', media_type: output.image.mediaType, data: output.image.data } })
    }
    if (outputs.some((output) => output === undefined)) push({ type: 'text', text: '\nOutputs of an unknown type are not shown.' })
  })
  return blocks
}

function outputOf(output: NotebookOutput): { text: string; image?: { data: string; mediaType: 'image/png' | 'image/jpeg' } } | undefined {
  switch (output.output_type) {
    case 'stream':
      return { text: plain(output.text) }
    case 'execute_result':
    case 'display_data': {
      const image = imageOf(output.data ?? {})
      return { text: plain(output.data?.['text/plain'] as string | string[] | undefined), ...(image && { image }) }
    }
    case 'error':
      return { text: plain(`${output.ename ?? ''}: ${output.evalue ?? ''}\n${(output.traceback ?? []).join('\n')}`) }
    default:
      return undefined
  }
}

function imageOf(data: Record<string, unknown>): { data: string; mediaType: 'image/png' | 'image/jpeg' } | undefined {
  for (const mediaType of ['image/png', 'image/jpeg'] as const) {
    const value = data[mediaType]
    if (typeof value === 'string') return { data: value.replace(/\s/g, ''), mediaType }
  }
  return undefined
}

/** Output text without terminal colour codes (a traceback is full of them). */
function plain(text: string | string[] | undefined): string {
  if (!text) return ''
  const joined = Array.isArray(text) ? text.join('') : text
  // eslint-disable-next-line no-control-regex -- the escape character is what is being removed
  return joined.replace(/\x1b\[[0-9;]*[A-Za-z]/g, '')
}
