import { mkdir, stat } from 'node:fs/promises'
import { dirname, extname } from 'node:path'
import { z } from 'zod'
import { defineTool, errorResult } from './define-tool'
import { DEFAULT_FORMAT, looksBinary, numberLines, readTextFile, writeTextFile } from './file-codec'
import type { TextFormat } from './file-codec'
import description from './edit.prompt'
import { requireAbsolute } from './paths'
import type { ToolPreview } from './types'
import { writableProblem } from './write'

/** Lines of context shown around an edit. */
const SNIPPET_CONTEXT = 4

const input = z.strictObject({
  file_path: z.string().describe('The absolute path to the file to modify'),
  old_string: z.string().describe('The text to replace'),
  new_string: z.string().describe('The text to replace it with (must be different from old_string)'),
  replace_all: z.boolean().default(false).optional().describe('Replace all occurrences of old_string (default false)'),
})
type EditInput = z.output<typeof input>

type Planned = { ok: true; before: string; after: string; format: TextFormat; created: boolean; count: number; at: number } | { ok: false; message: string }

/** Edit: exact string replacement, unique unless replace_all; keeps encoding and line endings. */
export const editTool = defineTool({
  name: 'Edit',
  label: 'Edit',
  description,
  input,
  summarize: (args) => `Edit ${args.file_path}`,
  async validate(args, ctx) {
    const relative = requireAbsolute(args.file_path)
    if (relative) return relative
    // A notebook's JSON is edited by cell (Claude Code's wording).
    if (extname(args.file_path) === '.ipynb') return 'File is a Jupyter Notebook. Use the NotebookEdit to edit this file.'
    if (args.old_string === args.new_string) return 'No changes to make: old_string and new_string are exactly the same.'
    const problem = await writableProblem(args.file_path, ctx)
    if (problem) return problem
    // A string that is missing or not unique is known before anyone is asked to approve the edit.
    const plan = await planEdit(args)
    return plan.ok ? undefined : plan.message
  },
  async preview(args): Promise<ToolPreview | undefined> {
    const plan = await planEdit(args)
    return plan.ok ? { kind: 'diff', filePath: args.file_path, before: plan.before, after: plan.after } : undefined
  },
  async execute(args, ctx) {
    const plan = await planEdit(args)
    if (!plan.ok) return errorResult(plan.message)
    await mkdir(dirname(args.file_path), { recursive: true })
    const written = await writeTextFile(args.file_path, plan.after, plan.format)
    ctx.fileState?.record(args.file_path, written, (await stat(args.file_path)).mtimeMs)
    const what = plan.created ? 'has been created' : plan.count > 1 ? `has been updated (${plan.count} replacements)` : 'has been updated'
    return {
      content: `The file ${args.file_path} ${what}. Here's the result of running \`cat -n\` on a snippet of the edited file:\n${snippet(plan.after, plan.at, args.new_string)}`,
      details: { filePath: args.file_path, before: plan.before, after: plan.after, replacements: plan.count },
    }
  },
})

/** Computes the edit without writing (shared by preview and execute, so approval shows what runs). */
async function planEdit(args: EditInput): Promise<Planned> {
  let file
  try {
    file = await readTextFile(args.file_path)
  } catch {
    if (args.old_string === '') return { ok: true, before: '', after: args.new_string, format: DEFAULT_FORMAT, created: true, count: 1, at: 0 }
    return { ok: false, message: `File does not exist: ${args.file_path}. To create a new file, use Write (or Edit with an empty old_string).` }
  }
  if (looksBinary(file.bytes)) return { ok: false, message: `${args.file_path} is a binary file and cannot be edited.` }
  const before = file.text
  if (args.old_string === '') {
    if (before.trim() !== '') return { ok: false, message: 'Cannot use an empty old_string on a file that has content. Give the exact text to replace, or use Write to replace the whole file.' }
    return { ok: true, before, after: args.new_string, format: file.format, created: false, count: 1, at: 0 }
  }
  // The model sees `\n` line endings in Read output; a CRLF in its strings means the same.
  const oldString = args.old_string.replace(/\r\n/g, '\n')
  const newString = args.new_string.replace(/\r\n/g, '\n')
  const count = before.split(oldString).length - 1
  if (count === 0) return { ok: false, message: `String to replace not found in file.\nString: ${args.old_string}` }
  if (count > 1 && !args.replace_all) {
    return {
      ok: false,
      message: `Found ${count} matches of the string to replace, but replace_all is false. To replace all occurrences, set replace_all to true. To replace only one occurrence, please provide more context to uniquely identify the instance.\nString: ${args.old_string}`,
    }
  }
  const at = before.indexOf(oldString)
  const after = args.replace_all ? before.split(oldString).join(newString) : before.slice(0, at) + newString + before.slice(at + oldString.length)
  return { ok: true, before, after, format: file.format, created: false, count: args.replace_all ? count : 1, at }
}

/** Numbered lines around the (first) change. */
function snippet(after: string, at: number, newString: string): string {
  const lines = after.split('\n')
  const firstLine = after.slice(0, at).split('\n').length - 1
  const lastLine = firstLine + newString.split('\n').length - 1
  const from = Math.max(0, firstLine - SNIPPET_CONTEXT)
  const to = Math.min(lines.length, lastLine + SNIPPET_CONTEXT + 1)
  return numberLines(lines.slice(from, to), from + 1)
}
