import { z } from 'zod'
import { AbsPath } from './common'

/** One entry of a project folder listing (`files.list`). */
export const FileEntry = z.object({
  name: z.string(),
  /** Relative to the project root, `/`-separated. */
  path: z.string(),
  kind: z.enum(['file', 'dir']),
})
export type FileEntry = z.infer<typeof FileEntry>

/** `files.*`: a project's files, read-only. */
export const filesRequests = {
  /** One folder of a project, `.gitignore` respected, folders first. */
  'files.list': {
    input: z.object({ root: AbsPath, dir: z.string().max(4096).default('') }).strict(),
    output: z.array(FileEntry),
  },
  /**
   * Files and folders of a project whose relative path matches `query` (for `@` completion in the
   * composer), best first; `.gitignore` respected, folders end with `/`. A query reaching outside
   * the project (absolute, `..`) is refused.
   */
  'files.search': {
    input: z
      .object({ projectPath: AbsPath, query: z.string().max(1024), limit: z.number().int().min(1).max(200).default(20) })
      .strict(),
    output: z.array(z.string()),
  },
  /** A project file's text, for the read-only viewer. */
  'files.read': {
    input: z.object({ root: AbsPath, path: z.string().min(1).max(4096) }).strict(),
    output: z.object({ text: z.string(), binary: z.boolean(), truncated: z.boolean() }),
  },
} as const
