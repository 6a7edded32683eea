import { z } from 'zod'
import { defineTool } from './define-tool'
import { requireAbsolute } from './paths'
import description from './read.prompt'

const input = z.strictObject({
  file_path: z.string().describe('The absolute path to the file to read'),
  offset: z.number().int().nonnegative().optional().describe('The line number to start reading from. Only provide if the file is too large to read at once'),
  limit: z.number().int().positive().optional().describe('The number of lines to read. Only provide if the file is too large to read at once.'),
  allow_large: z
    .boolean()
    .optional()
    .describe('Set to true to read a text file, or a line range of one, that is over the usual size limits, up to what still fits in your context. Only use this when you genuinely need all of it or the user asked for the whole file; otherwise read it in parts with offset and limit, or search it.'),
})

/** Read's input as parsed. */
export type ReadInput = z.output<typeof input>

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
  // The body (decoding, numbering, images, notebooks) loads at the first read.
  execute: async (args, ctx) => (await import('./read-run')).readFileForModel(args, ctx),
})
