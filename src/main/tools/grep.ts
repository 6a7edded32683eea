import { spawn } from 'node:child_process'
import { stat } from 'node:fs/promises'
import { isAbsolute, resolve } from 'node:path'
import { z } from 'zod'
import { childEnvironment } from '../base/child-env'
import { ripgrepCommand } from '../base/ripgrep'
import { defineTool, errorResult } from './define-tool'
import description from './grep.prompt'
import type { ToolResult } from './types'

const input = z.strictObject({
  pattern: z.string().describe('The regular expression pattern to search for in file contents'),
  path: z.string().optional().describe('File or directory to search in (rg PATH). Defaults to current working directory.'),
  glob: z.string().optional().describe('Glob pattern to filter files (e.g. "*.js", "*.{ts,tsx}") - maps to rg --glob'),
  type: z.string().optional().describe('File type to search (rg --type). Common types: js, py, rust, go, java, etc. More efficient than include for standard file types.'),
  output_mode: z
    .enum(['content', 'files_with_matches', 'count'])
    .optional()
    .describe('Output mode: "content" shows matching lines (supports -A/-B/-C context, -n line numbers, head_limit), "files_with_matches" shows file paths (supports head_limit), "count" shows match counts (supports head_limit). Defaults to "files_with_matches".'),
  '-i': z.boolean().optional().describe('Case insensitive search (rg -i)'),
  '-n': z.boolean().optional().describe('Show line numbers in output (rg -n). Requires output_mode: "content", ignored otherwise. Defaults to true.'),
  '-A': z.number().int().nonnegative().optional().describe('Number of lines to show after each match (rg -A). Requires output_mode: "content", ignored otherwise.'),
  '-B': z.number().int().nonnegative().optional().describe('Number of lines to show before each match (rg -B). Requires output_mode: "content", ignored otherwise.'),
  '-C': z.number().int().nonnegative().optional().describe('Number of lines to show before and after each match (rg -C). Requires output_mode: "content", ignored otherwise.'),
  multiline: z.boolean().optional().describe('Enable multiline mode where . matches newlines and patterns can span lines (rg -U --multiline-dotall). Default: false.'),
  head_limit: z.number().int().positive().optional().describe('Limit output to first N lines/entries, equivalent to "| head -N". Works across all output modes.'),
})
type GrepInput = z.output<typeof input>

/** Grep: the bundled ripgrep (see base/ripgrep.ts), .gitignore respected, three output modes. */
export const grepTool = defineTool({
  name: 'Grep',
  label: 'Search',
  description,
  input,
  isReadOnly: () => true,
  isDestructive: () => false,
  isConcurrencySafe: () => true,
  summarize: (args) => `Grep "${args.pattern}"${args.path ? ` in ${args.path}` : ''}`,
  async execute(args, ctx) {
    const target = args.path ? (isAbsolute(args.path) ? args.path : resolve(ctx.cwd, args.path)) : ctx.cwd
    try {
      await stat(target)
    } catch {
      return errorResult(`Path does not exist: ${target}`)
    }
    const mode = args.output_mode ?? 'files_with_matches'
    const run = await runRipgrep(buildArgs(args, mode, target), ctx.cwd, ctx.signal)
    if (run.kind === 'missing') return errorResult(`ripgrep could not be started (${run.command}): the copy bundled with Sous (@vscode/ripgrep) is missing for this platform and there is no rg on PATH. Reinstall Sous's dependencies, or install ripgrep.`)
    if (run.kind === 'failed') return errorResult(`Grep failed: ${run.stderr.trim() || `rg exited with code ${run.code}`}`)
    return format(mode, withoutDenied(run.stdout, mode, ctx.isReadDenied), args.head_limit, run.stderr, target)
  },
})

/** The rg command line for an input. */
export function buildArgs(args: GrepInput, mode: NonNullable<GrepInput['output_mode']>, target: string): string[] {
  // --null ends every file name with NUL, so results can be told apart by file (see withoutDenied).
  const out = ['--hidden', '--glob', '!.git', '--max-columns', '500', '--color', 'never', '--no-messages', '--null']
  if (mode === 'files_with_matches') out.push('--files-with-matches')
  else if (mode === 'count') out.push('--count', '--with-filename')
  else {
    out.push('--no-heading', '--with-filename')
    if (args['-n'] !== false) out.push('--line-number')
    if (args['-C'] !== undefined) out.push('-C', String(args['-C']))
    if (args['-A'] !== undefined) out.push('-A', String(args['-A']))
    if (args['-B'] !== undefined) out.push('-B', String(args['-B']))
  }
  if (args['-i']) out.push('--ignore-case')
  if (args.multiline) out.push('--multiline', '--multiline-dotall')
  if (args.type) out.push('--type', args.type)
  for (const pattern of splitGlobs(args.glob)) out.push('--glob', pattern)
  out.push('--regexp', args.pattern, '--', target)
  return out
}

/** "*.ts *.tsx" or "*.ts,*.tsx" → separate globs; commas inside braces stay. */
function splitGlobs(glob: string | undefined): string[] {
  if (!glob) return []
  return glob.split(/\s+/).flatMap((part) => (part.includes('{') ? [part] : part.split(','))).filter(Boolean)
}

/**
 * Drops the results of files the permission rules keep from being read (a `Read(./secrets/**)`
 * deny must hold for a search too), and turns rg's `--null` output back into its usual shape:
 * one path per line, `path:N` counts, `path:N:text` matches and `path-N-text` context lines.
 */
export function withoutDenied(stdout: string, mode: NonNullable<GrepInput['output_mode']>, isDenied: ((path: string) => boolean) | undefined): string {
  const denied = isDenied ?? (() => false)
  if (mode === 'files_with_matches') return stdout.split('\0').filter((path) => path !== '' && path !== '\n' && !denied(path.trim())).map((path) => path.trim()).join('\n')
  const lines: string[] = []
  for (const line of stdout.split('\n')) {
    const end = line.indexOf('\0')
    if (end === -1) {
      // A `--` between groups of context: kept unless it would follow another one or open the output.
      if (line !== '--' || (lines.length > 0 && lines[lines.length - 1] !== '--')) lines.push(line)
      continue
    }
    const path = line.slice(0, end)
    if (denied(path)) continue
    const rest = line.slice(end + 1)
    lines.push(`${path}${mode === 'content' && /^\d+-/.test(rest) ? '-' : ':'}${rest}`)
  }
  while (lines[lines.length - 1] === '--' || lines[lines.length - 1] === '') lines.pop()
  return lines.join('\n')
}

type RgRun = { kind: 'ok'; stdout: string; stderr: string } | { kind: 'missing'; command: string } | { kind: 'failed'; code: number | null; stderr: string }

async function runRipgrep(args: string[], cwd: string, signal: AbortSignal): Promise<RgRun> {
  const command = await ripgrepCommand()
  return new Promise((resolvePromise) => {
    // A user's RIPGREP_CONFIG_PATH could change the output format we parse; no child gets our key.
    const env = childEnvironment(process.env)
    delete env.RIPGREP_CONFIG_PATH
    const child = spawn(command, args, { cwd, env, signal, stdio: ['ignore', 'pipe', 'pipe'] })
    const stdout: Buffer[] = []
    const stderr: Buffer[] = []
    child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk))
    child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk))
    child.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') resolvePromise({ kind: 'missing', command })
      else resolvePromise({ kind: 'failed', code: null, stderr: error.message })
    })
    child.on('close', (code) => {
      const out = Buffer.concat(stdout).toString('utf8')
      const err = Buffer.concat(stderr).toString('utf8')
      // 0: matches, 1: none, 2: an error (some files unreadable) possibly with matches.
      if (code === 0 || code === 1 || (code === 2 && out)) resolvePromise({ kind: 'ok', stdout: out, stderr: err })
      else resolvePromise({ kind: 'failed', code, stderr: err })
    })
  })
}

async function format(mode: string, stdout: string, headLimit: number | undefined, stderr: string, target: string): Promise<ToolResult> {
  let lines = stdout.split('\n').filter((line) => line !== '')
  if (mode === 'files_with_matches') {
    const withTimes = await Promise.all(lines.map(async (path) => ({ path, mtime: await stat(path).then((s) => s.mtimeMs, () => 0) })))
    withTimes.sort((a, b) => b.mtime - a.mtime || a.path.localeCompare(b.path))
    lines = withTimes.map((entry) => entry.path)
  }
  const total = lines.length
  if (headLimit !== undefined) lines = lines.slice(0, headLimit)
  const limited = headLimit !== undefined && total > headLimit ? `\n(Showing the first ${headLimit} of ${total} ${mode === 'content' ? 'lines' : 'entries'}.)` : ''
  const warning = stderr.trim() ? `\n(Some paths could not be searched: ${stderr.trim().split('\n')[0]})` : ''
  const details = { mode, target, total }
  if (mode === 'files_with_matches') {
    if (total === 0) return { content: 'No files found', details }
    return { content: `Found ${total} file${total === 1 ? '' : 's'}\n${lines.join('\n')}${limited}${warning}`, details }
  }
  if (mode === 'count') {
    if (total === 0) return { content: 'No matches found', details }
    const matches = lines.reduce((sum, line) => sum + Number(line.slice(line.lastIndexOf(':') + 1) || 0), 0)
    return { content: `${lines.join('\n')}\n\nFound ${matches} total occurrences across ${lines.length} files.${limited}${warning}`, details }
  }
  if (total === 0) return { content: 'No matches found', details }
  return { content: lines.join('\n') + limited + warning, details }
}
