import { mkdir, readFile, stat } from 'node:fs/promises'
import { dirname } from 'node:path'
import { z } from 'zod'
import { defineTool, errorResult } from './define-tool'
import { DEFAULT_FORMAT, decodeText, looksBinary, writeTextFile } from './file-codec'
import { requireAbsolute } from './paths'
import type { ToolContext, ToolPreview } from './types'
import description from './write.prompt'

const input = z.strictObject({
  file_path: z.string().describe('The absolute path to the file to write (must be absolute, not relative)'),
  content: z.string().describe('The content to write to the file'),
})

/** Write: creates or overwrites a file, keeping an existing file's encoding and line endings. */
export const writeTool = defineTool({
  name: 'Write',
  label: 'Write',
  description,
  input,
  summarize: (args) => `Write ${args.file_path}`,
  validate: async (args, ctx) => requireAbsolute(args.file_path) ?? (await writableProblem(args.file_path, ctx)),
  preview: async (args): Promise<ToolPreview> => ({ kind: 'diff', filePath: args.file_path, before: (await currentText(args.file_path))?.text ?? '', after: args.content }),
  async execute(args, ctx) {
    const existing = await currentText(args.file_path)
    if (existing?.binary) return errorResult(`${args.file_path} is a binary file; Write only replaces text files.`)
    await mkdir(dirname(args.file_path), { recursive: true })
    const written = await writeTextFile(args.file_path, args.content, existing?.format ?? DEFAULT_FORMAT)
    ctx.fileState?.record(args.file_path, written, (await stat(args.file_path)).mtimeMs)
    const lines = args.content.length === 0 ? 0 : args.content.split('\n').length
    const verb = existing ? 'updated' : 'created'
    return {
      content: `The file ${args.file_path} has been ${verb} (${lines} lines).`,
      details: { filePath: args.file_path, created: !existing, before: existing?.text ?? '', after: args.content },
    }
  },
})

/** Shared by Write and Edit: the file-state check, failing closed without a cache. */
export async function writableProblem(filePath: string, ctx: ToolContext): Promise<string | undefined> {
  if (ctx.fileState) return ctx.fileState.checkWritable(filePath)
  try {
    await stat(filePath)
  } catch {
    return undefined
  }
  return 'This session keeps no record of read files, so existing files cannot be changed safely.'
}

async function currentText(filePath: string) {
  let bytes: Buffer
  try {
    bytes = await readFile(filePath)
  } catch {
    return undefined
  }
  if (looksBinary(bytes)) return { binary: true as const, text: '', format: DEFAULT_FORMAT }
  return { binary: false as const, ...decodeText(bytes) }
}
