import { readFile, stat } from 'node:fs/promises'
import { extname } from 'node:path'
import { z } from 'zod'
import { defineTool, errorResult } from './define-tool'
import { decodeText, looksBinary, numberLines } from './file-codec'
import { notebookForModel, parseNotebook } from './notebook'
import { requireAbsolute, similarFile } from './paths'
import description from './read.prompt'
import type { ToolContext, ToolResult } from './types'

export const DEFAULT_LINE_LIMIT = 2000
export const MAX_LINE_CHARS = 2000
/** A read bigger than this asks for offset/limit instead (about 25k tokens). */
export const MAX_READ_CHARS = 100_000
/**
 * With `allow_large` (Claude Code 2.1.328): no default line limit and this cap instead of
 * {@link MAX_READ_CHARS} (about 100k tokens, half of a 200k window), so one read cannot fill the context.
 */
export const MAX_LARGE_READ_CHARS = 400_000
/** The API's limit for one base64 image is 5 MB. */
const MAX_IMAGE_BYTES = 3_750_000

const IMAGE_TYPES: Record<string, string> = {
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
}

const input = z.strictObject({
  file_path: z.string().describe('The absolute path to the file to read'),
  offset: z.number().int().nonnegative().optional().describe('The line number to start reading from. Only provide if the file is too large to read at once'),
  limit: z.number().int().positive().optional().describe('The number of lines to read. Only provide if the file is too large to read at once.'),
  allow_large: z
    .boolean()
    .optional()
    .describe('Set to true to read a text file, or a line range of one, that is over the usual size limits, up to what still fits in your context. Only use this when you genuinely need all of it or the user asked for the whole file; otherwise read it in parts with offset and limit, or search it.'),
})

/** Read: numbered lines, images as image blocks; records what it saw for Edit/Write. */
export const readTool = defineTool({
  name: 'Read',
  label: 'Read',
  description,
  input,
  isReadOnly: () => true,
  isDestructive: () => false,
  isConcurrencySafe: () => true,
  // Persisting a Read result would only make the model read the persisted file again.
  maxResultChars: Infinity,
  summarize: (args) => `Read ${args.file_path}`,
  validate: async (args) => requireAbsolute(args.file_path),
  execute: (args, ctx) => readFileForModel(args, ctx),
})

async function readFileForModel(args: z.output<typeof input>, ctx: ToolContext): Promise<ToolResult> {
  const filePath = args.file_path
  let info
  try {
    info = await stat(filePath)
  } catch {
    const similar = await similarFile(filePath)
    return errorResult(`File does not exist: ${filePath}.${similar ? ` Did you mean ${similar}?` : ''} Current working directory: ${ctx.cwd}`)
  }
  if (info.isDirectory()) return errorResult(`${filePath} is a directory, not a file. Use Glob, or ls through Bash, to list it.`)
  const ext = extname(filePath).toLowerCase()
  if (ext === '.pdf') return errorResult('PDF reading is not supported yet. Try a text extraction command such as `pdftotext` through Bash if it is installed.')
  const bytes = await readFile(filePath)
  ctx.fileState?.record(filePath, bytes, info.mtimeMs)
  const mediaType = IMAGE_TYPES[ext]
  if (mediaType) {
    if (bytes.byteLength > MAX_IMAGE_BYTES) return errorResult(`Image is too large to send (${bytes.byteLength} bytes; the limit is ${MAX_IMAGE_BYTES}).`)
    return {
      content: [{ type: 'image', source: { type: 'base64', media_type: mediaType, data: bytes.toString('base64') } }],
      details: { filePath, kind: 'image', mediaType, bytes: bytes.byteLength },
    }
  }
  if (ext === '.ipynb') return readNotebook(filePath, bytes)
  if (looksBinary(bytes)) {
    return errorResult(`Cannot read binary file ${filePath} (${bytes.byteLength} bytes). Only text files and images (png, jpg, gif, webp) can be read.`)
  }
  const { text: body } = decodeText(bytes)
  if (body.length === 0) {
    return { content: '<system-reminder>Warning: the file exists but the contents are empty.</system-reminder>', details: { filePath, lines: 0 } }
  }
  const all = (body.endsWith('\n') ? body.slice(0, -1) : body).split('\n').map((line) => (line.endsWith('\r') ? line.slice(0, -1) : line))
  // offset counts lines from 1 as Claude Code does; 0 and 1 both mean the first line.
  const start = Math.max(0, (args.offset ?? 1) - 1)
  if (start >= all.length) {
    return { content: `<system-reminder>Warning: the file has ${all.length} lines, so offset ${args.offset} is past its end.</system-reminder>`, details: { filePath, lines: all.length } }
  }
  const large = args.allow_large === true
  const slice = all.slice(start, args.limit !== undefined ? start + args.limit : large ? undefined : start + DEFAULT_LINE_LIMIT)
  const rows = slice.map((line) => (line.length > MAX_LINE_CHARS ? `${line.slice(0, MAX_LINE_CHARS)}... [line truncated]` : line))
  const numbered = numberLines(rows, start + 1)
  const maxChars = large ? MAX_LARGE_READ_CHARS : MAX_READ_CHARS
  if (numbered.length > maxChars) {
    const hint = large ? 'Even with allow_large, that is more than fits; read it in parts with offset and limit' : 'Use offset and limit to read it in parts (or allow_large: true if you truly need all of it)'
    return errorResult(`File content (${numbered.length} characters for ${rows.length} lines) exceeds the maximum of ${maxChars} characters per read. ${hint}, or Grep for what you need.`)
  }
  const end = start + slice.length
  const more = end < all.length ? `\n\n<system-reminder>Showing lines ${start + 1}-${end} of ${all.length}. Use offset and limit to read more.</system-reminder>` : ''
  return { content: numbered + more, details: { filePath, startLine: start + 1, lines: slice.length, totalLines: all.length } }
}

/** A notebook as its cells (Claude Code's `<cell id="…">` wording, which NotebookEdit's `cell_id` names). */
function readNotebook(filePath: string, bytes: Buffer): ToolResult {
  const notebook = parseNotebook(decodeText(bytes).text)
  if (typeof notebook === 'string') return errorResult(notebook)
  const content = notebookForModel(notebook)
  const chars = content.reduce((sum, block) => sum + (block.type === 'text' ? block.text.length : 0), 0)
  if (chars > MAX_LARGE_READ_CHARS) {
    return errorResult(`Notebook content (${chars} characters) exceeds the maximum of ${MAX_LARGE_READ_CHARS} characters per read. Use Bash with jq to read parts of it, e.g. cat ${filePath} | jq '.cells[:20]'.`)
  }
  return { content: content.length ? content : '<system-reminder>Warning: the notebook exists but has no cells.</system-reminder>', details: { filePath, kind: 'notebook', cells: notebook.cells.length } }
}
