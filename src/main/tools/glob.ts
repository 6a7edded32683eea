import { stat } from 'node:fs/promises'
import { isAbsolute, resolve } from 'node:path'
import { GitignoreMatcher, gitignoreRoot } from '../base/gitignore'
import { z } from 'zod'
import { defineTool, errorResult } from './define-tool'
import description from './glob.prompt'

export const MAX_GLOB_RESULTS = 100

const input = z.strictObject({
  pattern: z.string().describe('The glob pattern to match files against'),
  path: z
    .string()
    .optional()
    .describe('The directory to search in. If not specified, the current working directory will be used. IMPORTANT: Omit this field to use the default directory. DO NOT enter "undefined" or "null" - simply omit it for the default behavior. Must be a valid directory path if provided.'),
})

/** Glob: tinyglobby, .gitignore respected, newest first, capped. */
export const globTool = defineTool({
  name: 'Glob',
  label: 'Find files',
  description,
  input,
  isReadOnly: () => true,
  isDestructive: () => false,
  isConcurrencySafe: () => true,
  summarize: (args) => `Glob ${args.pattern}${args.path ? ` in ${args.path}` : ''}`,
  async execute(args, ctx) {
    const root = args.path ? (isAbsolute(args.path) ? args.path : resolve(ctx.cwd, args.path)) : ctx.cwd
    try {
      if (!(await stat(root)).isDirectory()) return errorResult(`Path is not a directory: ${root}`)
    } catch {
      return errorResult(`Directory does not exist: ${root}`)
    }
    const started = Date.now()
    // Loaded on the first Glob: tinyglobby's fdir requires picomatch from node_modules as it loads,
    // which a cold `sous -p` would pay for without a glob (docs/design/startup.md).
    const { glob } = await import('tinyglobby')
    const matches = await glob(args.pattern, {
      cwd: root,
      absolute: true,
      dot: true,
      onlyFiles: true,
      followSymbolicLinks: false,
      ignore: ['**/.git/**', '**/node_modules/**'],
      signal: ctx.signal,
    })
    const gitignore = new GitignoreMatcher(await gitignoreRoot(root, ctx.projectRoot))
    const kept: Array<{ path: string; mtime: number }> = []
    await Promise.all(
      matches.map(async (path) => {
        // Files the permission rules keep from being read are not listed either.
        if (ctx.isReadDenied?.(path) || (await gitignore.ignoresAbsolute(path, false))) return
        const mtime = await stat(path).then((s) => s.mtimeMs, () => 0)
        kept.push({ path, mtime })
      }),
    )
    kept.sort((a, b) => b.mtime - a.mtime || a.path.localeCompare(b.path))
    const shown = kept.slice(0, MAX_GLOB_RESULTS).map((entry) => entry.path)
    const truncated = kept.length > MAX_GLOB_RESULTS
    const body = shown.length ? shown.join('\n') : 'No files found'
    const note = truncated ? `\n(Results are truncated: showing ${MAX_GLOB_RESULTS} of ${kept.length}. Consider a more specific path or pattern.)` : ''
    return { content: body + note, details: { root, count: kept.length, truncated, durationMs: Date.now() - started, files: shown } }
  },
})
