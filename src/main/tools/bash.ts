import { z } from 'zod'
import type { PtyService } from '../pty/types'
import description from './bash.prompt'
import { defineTool, errorResult } from './define-tool'
import { CommandRun } from './shell/command-run'
import { HeadTailBuffer } from './shell/output'
import type { ToolContext, ToolResult } from './types'

export const DEFAULT_TIMEOUT_MS = 120_000
export const MAX_TIMEOUT_MS = 600_000

const input = z.strictObject({
  command: z.string().describe('The command to execute'),
  timeout: z.number().int().positive().max(MAX_TIMEOUT_MS).optional().describe(`Optional timeout in milliseconds (max ${MAX_TIMEOUT_MS})`),
  description: z
    .string()
    .optional()
    .describe(`Clear, concise description of what this command does in 5-10 words, in active voice. Examples:\nInput: ls\nOutput: List files in current directory\n\nInput: git status\nOutput: Show working tree status\n\nInput: npm install\nOutput: Install package dependencies`),
  run_in_background: z.boolean().optional().describe('Set to true to run this command in the background. Use TaskOutput to read the output later.'),
})
export type BashInput = z.output<typeof input>

/** What a classifier says about a command (governance provides one over a syntax tree). */
export interface BashTraits {
  readOnly: boolean
  concurrencySafe: boolean
}

/** Capabilities of the Bash tool. */
export interface BashToolDeps {
  pty: PtyService
  /** Classifies a command; without one, every command is treated as writing and exclusive. */
  classify?(command: string): BashTraits
}

/** Bash: one command per call on a real PTY; cwd persists per session; background shells. */
export function createBashTool(deps: BashToolDeps) {
  return defineTool({
    name: 'Bash',
    label: 'Bash',
    description,
    input,
    isReadOnly: (args) => deps.classify?.(args.command).readOnly ?? false,
    isDestructive: (args) => !(deps.classify?.(args.command).readOnly ?? false),
    isConcurrencySafe: (args) => deps.classify?.(args.command).concurrencySafe ?? false,
    summarize: (args) => args.description ?? args.command.split('\n')[0]!.slice(0, 120),
    preview: async (args) => ({ kind: 'command', command: args.command, description: args.description }),
    validate: async (args) => (args.command.trim() === '' ? 'command must not be empty.' : undefined),
    execute: (args, ctx) => (args.run_in_background ? startInBackground(deps.pty, args, ctx) : runForeground(deps.pty, args, ctx)),
  })
}

async function runForeground(pty: PtyService, args: BashInput, ctx: ToolContext): Promise<ToolResult> {
  const cwd = ctx.shell?.cwd ?? ctx.cwd
  const timeoutMs = args.timeout ?? DEFAULT_TIMEOUT_MS
  const run = new CommandRun(pty, { command: args.command, cwd, timeoutMs, signal: ctx.signal })
  ctx.onPtySpawn?.(run.proc, args.command)
  const output = new HeadTailBuffer()
  run.onOutput((raw) => output.push(raw))
  const end = await run.done
  if (end.cwd && ctx.shell) ctx.shell.cwd = end.cwd
  const text = output.render()
  const details = { ptyId: run.proc.id, command: args.command, exitCode: end.exitCode, cwd: ctx.shell?.cwd ?? cwd, timedOut: end.timedOut, outputChars: output.total }
  if (end.timedOut) return errorResult(`${text}\n\nCommand timed out after ${timeoutMs} ms and was killed (with its process group).`.trim(), details)
  if (end.aborted) return errorResult(`${text}\n\nCommand was aborted by the user.`.trim(), details)
  if (end.exitCode !== 0) {
    const code = end.exitCode === null ? 'Command was killed.' : `Exit code ${end.exitCode}`
    return errorResult(`${code}\n${text}`.trim(), details)
  }
  const note = end.cwd && end.cwd !== cwd ? `\n\n[Working directory is now ${end.cwd}]` : ''
  return { content: (text || '(no output)') + note, details }
}

async function startInBackground(pty: PtyService, args: BashInput, ctx: ToolContext): Promise<ToolResult> {
  if (!ctx.shell) return errorResult('Background commands are not available in this session.')
  // A background command is not bound to the turn's signal or the default timeout.
  const shell = ctx.shell.background.start(pty, { command: args.command, cwd: ctx.shell.cwd, timeoutMs: args.timeout ?? 0 })
  ctx.onPtySpawn?.(shell.run.proc, args.command)
  return {
    content: `Command running in background with ID: ${shell.id}. Use TaskOutput with task_id "${shell.id}" to read its output, and TaskStop to end it.`,
    details: { ptyId: shell.run.proc.id, command: args.command, taskId: shell.id, background: true },
  }
}
