import { randomBytes } from 'node:crypto'
import { join } from 'node:path'
import { safeGitEnvironment } from '../base/git-safety'
import { z } from 'zod'
import type { PtyService } from '../pty/types'
import description from './bash.prompt'
import { reportViolations, resolveSandbox, violationLines, type BashSandboxDetails, type BashSandboxSource, type BashSandboxState, type ViolationReport } from './bash-sandbox'
import { defineTool, errorResult } from './define-tool'
import { CommandRun, WRAPPER } from './shell/command-run'
import { HeadTailBuffer, MAX_OUTPUT_CHARS } from './shell/output'
import { SpillFile } from './shell/spill-file'
import { toolResultsDir } from '../base/paths'
import type { ToolContext, ToolPreview, ToolResult } from './types'

export const DEFAULT_TIMEOUT_MS = 120_000
export const MAX_TIMEOUT_MS = 600_000

const input = z.strictObject({
  command: z.string().describe('The command to execute'),
  timeout: z.number().int().positive().max(MAX_TIMEOUT_MS).optional().describe(`Optional timeout in milliseconds (max ${MAX_TIMEOUT_MS})`),
  description: z
    .string()
    .optional()
    .describe(`Clear, concise description of what this command does in 5-10 words, in active voice. Examples:\nInput: ls\nOutput: List files in current directory\n\nInput: git status\nOutput: Show working tree status\n\nInput: npm install\nOutput: Install package dependencies`),
  run_in_background: z.boolean().optional().describe('Set to true to run this command in the background. Its output is written to a file the result names (Read it to check on it); you are notified when it ends.'),
  dangerouslyDisableSandbox: z
    .boolean()
    .optional()
    .describe('Set this to true to dangerously override sandbox mode and run commands without sandboxing. The user is always asked first.'),
})
export type BashInput = z.output<typeof input>

/** What a classifier says about a command (governance provides one over a syntax tree). */
export interface BashTraits {
  readOnly: boolean
  concurrencySafe: boolean
}

/** What the approval preview shows of a command (governance parses it with a syntax tree). */
export interface BashInspection {
  commands: string[]
  paths: Array<{ path: string; write: boolean; inside: boolean; realPath?: string }>
  writesOutside: boolean
  problems: string[]
}

/** Capabilities of the Bash tool. */
export interface BashToolDeps {
  pty: PtyService
  /** Classifies a command; without one, every command is treated as writing and exclusive. */
  classify?(command: string): BashTraits
  /** Parses a command for the approval preview; without one, the preview shows the text only. */
  inspect?(command: string, cwd: string): Promise<BashInspection>
  /**
   * The sandbox as probed at start-up. Available: every command runs inside it (unless the call
   * sets dangerouslyDisableSandbox). Unavailable: commands run outside, and the details say why.
   * Absent: no sandbox was configured. A function starts it on the first call that needs it.
   */
  sandbox?: BashSandboxSource
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
    preview: (args, ctx) => preview(deps, args, ctx),
    validate: async (args) => (args.command.trim() === '' ? 'command must not be empty.' : undefined),
    execute: async (args, ctx) => {
      const sandbox = await sandboxFor(await resolveSandbox(deps.sandbox), args, ctx, noticed)
      if ('content' in sandbox) return sandbox
      // A read-only command may have run without anybody's approval: its git obeys no program the repository's own configuration names.
      const env = (deps.classify?.(args.command).readOnly ?? false) ? safeGitEnvironment(process.env) : undefined
      return args.run_in_background ? startInBackground(deps.pty, args, ctx, sandbox, env) : runForeground(deps.pty, args, ctx, sandbox, env)
    },
  })
}

/** Sessions (by their shell state) already told that the sandbox is unavailable. */
const noticed = new WeakSet<object>()

async function preview(deps: BashToolDeps, args: BashInput, ctx: ToolContext): Promise<ToolPreview> {
  const base: ToolPreview = { kind: 'command', command: args.command, ...(args.description ? { description: args.description } : {}) }
  const s = await resolveSandbox(deps.sandbox)
  const sandbox = s ? { sandboxed: s.available && !args.dangerouslyDisableSandbox, ...(sandboxNote(s, args) ? { sandboxNote: sandboxNote(s, args) } : {}) } : {}
  if (!deps.inspect) return { ...base, ...sandbox }
  const facts = await deps.inspect(args.command, ctx.shell?.cwd ?? ctx.cwd)
  return { ...base, commands: facts.commands, paths: facts.paths, writesOutside: facts.writesOutside, problems: facts.problems, ...sandbox }
}

function sandboxNote(s: BashSandboxState, args: BashInput): string | undefined {
  if (args.dangerouslyDisableSandbox) return 'runs outside the sandbox: the call set dangerouslyDisableSandbox'
  return s.available ? undefined : `runs outside the sandbox: ${s.reason}`
}

/** How one call uses the sandbox: a wrapped script and its id, or the reason it runs outside. */
interface SandboxUse {
  script?: string
  commandId?: string
  cleanup?: () => void
  annotate?: (commandId: string) => string[]
  details?: BashSandboxDetails & { notice?: string }
}

/**
 * Wraps the whole command script in the sandbox when there is one. Contract: a sandbox that fails to
 * wrap never means running unsandboxed; the call fails with an error result instead.
 */
async function sandboxFor(state: BashSandboxState | undefined, args: BashInput, ctx: ToolContext, told: WeakSet<object>): Promise<SandboxUse | ToolResult> {
  if (!state) return {}
  if (args.dangerouslyDisableSandbox) return { details: { sandboxed: false, reason: 'dangerouslyDisableSandbox' } }
  if (!state.available) {
    const key = ctx.shell ?? ctx
    const first = !told.has(key)
    told.add(key)
    return { details: { sandboxed: false, reason: state.reason, ...(first ? { notice: `${state.reason}. Commands run outside the sandbox.` } : {}) } }
  }
  const { sandbox } = state
  // 128 random bits: the sandbox's proxy binds this command's network allowances to the id.
  const commandId = `sous-bash-${randomBytes(16).toString('base64url')}`
  try {
    const script = await sandbox.wrap(WRAPPER, { commandId, commandText: args.command, signal: ctx.signal, toolUseId: ctx.toolUseId })
    return {
      script,
      commandId,
      cleanup: () => sandbox.cleanup?.(commandId),
      annotate: (id) => violationLines(sandbox.annotate(id, '')),
      details: { sandboxed: true },
    }
  } catch (e) {
    return errorResult(`The sandbox could not prepare this command, so it was not run: ${(e as Error).message}`, { command: args.command, sandbox: { sandboxed: false, reason: 'wrap failed' } })
  }
}

async function runForeground(pty: PtyService, args: BashInput, ctx: ToolContext, sb: SandboxUse, env?: Record<string, string>): Promise<ToolResult> {
  const cwd = ctx.shell?.cwd ?? ctx.cwd
  const timeoutMs = args.timeout ?? DEFAULT_TIMEOUT_MS
  const run = new CommandRun(pty, { command: args.command, cwd, timeoutMs, signal: ctx.signal, ...(sb.script ? { script: sb.script } : {}), ...(env ? { env } : {}) })
  ctx.onPtySpawn?.(run.proc, args.command)
  const maxChars = ctx.bashOutputMaxChars?.() ?? MAX_OUTPUT_CHARS
  const output = new HeadTailBuffer(4 * maxChars)
  const spill = new SpillFile(join(toolResultsDir(ctx.projectDataDir, ctx.sessionId), `${ctx.toolUseId.replace(/[^A-Za-z0-9_-]/g, '_')}.bash.txt`), maxChars)
  run.onOutput((raw) => {
    output.push(raw)
    spill.push(raw)
  })
  const end = await run.done.finally(() => sb.cleanup?.())
  if (end.cwd && ctx.shell) ctx.shell.cwd = end.cwd
  const full = await spill.finish()
  const inline = output.render(maxChars)
  // Only output that really was cut names the file (terminal codes can make raw output look longer).
  const rendered = full && inline.includes('characters cut from the middle of the output') ? `${inline}\n\n[The whole output (${output.total.toLocaleString('en-US')} characters as the terminal sent them) is saved in ${full}; Read it for what was cut.]` : inline
  const report = await violationsOf(sb, { failed: end.exitCode !== 0 && !end.timedOut && !end.aborted, output: rendered })
  const violations = report.lines
  const sandbox = sb.details ? { sandbox: { ...sb.details, ...(violations.length ? { violations } : {}) } } : {}
  const text = rendered + violationBlock(report)
  const details = { ptyId: run.proc.id, command: args.command, exitCode: end.exitCode, cwd: ctx.shell?.cwd ?? cwd, timedOut: end.timedOut, outputChars: output.total, ...(full && { outputFile: full }), ...sandbox }
  if (end.timedOut) return errorResult(`${text}\n\nCommand timed out after ${timeoutMs} ms and was killed (with its process group).`.trim(), details)
  if (end.aborted) return errorResult(`${text}\n\nCommand was aborted by the user.`.trim(), details)
  if (end.exitCode !== 0) {
    const code = end.exitCode === null ? 'Command was killed.' : `Exit code ${end.exitCode}`
    return errorResult(`${code}\n${text}`.trim(), details)
  }
  const note = end.cwd && end.cwd !== cwd ? `\n\n[Working directory is now ${end.cwd}]` : ''
  return { content: (text || '(no output)') + note, details }
}

/**
 * What the sandbox refused during this command that the model should hear about (see
 * `reportViolations`). Refusals arrive on a socket of their own: a failed command whose refusals
 * are not in yet gets one short grace period (a successful one does not wait).
 */
async function violationsOf(sb: SandboxUse, o: { failed: boolean; output: string }): Promise<ViolationReport> {
  if (!sb.annotate || !sb.commandId) return { lines: [], refusal: false }
  let lines = sb.annotate(sb.commandId)
  if (lines.length === 0 && o.failed) {
    await new Promise((resolve) => setTimeout(resolve, VIOLATION_GRACE_MS))
    lines = sb.annotate(sb.commandId)
  }
  return reportViolations(lines, o)
}

const VIOLATION_GRACE_MS = 50

/**
 * What the model reads about refused operations (the library's own block format). Leaving the
 * sandbox is suggested only when the command failed because of it.
 */
function violationBlock(report: ViolationReport): string {
  if (report.lines.length === 0) return ''
  const block = `\n<sandbox_violations>\n${report.lines.join('\n')}\n</sandbox_violations>`
  if (!report.refusal) return `${block}\nThe sandbox refused or undid the operations above.`
  return `${block}\nThe sandbox refused the operations above. If the command truly needs them, say why and retry with dangerouslyDisableSandbox: true (the user will be asked).`
}

async function startInBackground(pty: PtyService, args: BashInput, ctx: ToolContext, sb: SandboxUse, env?: Record<string, string>): Promise<ToolResult> {
  if (!ctx.shell) {
    sb.cleanup?.()
    return errorResult('Background commands are not available in this session.')
  }
  // A background command is not bound to the turn's signal or the default timeout.
  const tasks = join(toolResultsDir(ctx.projectDataDir, ctx.sessionId), 'tasks')
  const shell = ctx.shell.background.start(
    pty,
    { command: args.command, cwd: ctx.shell.cwd, timeoutMs: args.timeout ?? 0, ...(sb.script ? { script: sb.script } : {}), ...(env ? { env } : {}) },
    // The session may Read its tool-results folder without asking; the call id keeps agents' files apart.
    { ...(args.description && { description: args.description }), toolUseId: ctx.toolUseId, outputFile: (id) => join(tasks, `${id}-${ctx.toolUseId.replace(/[^A-Za-z0-9_-]/g, '_')}.output`) },
  )
  void shell.run.done.finally(() => sb.cleanup?.())
  ctx.onPtySpawn?.(shell.run.proc, args.command)
  // Claude Code 2.1.328's words; TaskOutput and TaskStop are Sous's besides.
  const where = shell.outputFile
    ? ` Output is being written to: ${shell.outputFile}. You will be notified when it completes. To check interim output, use Read on that file path.`
    : ' You will be notified when it completes.'
  return {
    content: `Command running in background with ID: ${shell.id}.${where} TaskOutput with task_id "${shell.id}" also reads its new output; TaskStop ends it.`,
    details: { ptyId: shell.run.proc.id, command: args.command, taskId: shell.id, background: true, ...(shell.outputFile && { outputFile: shell.outputFile }), ...(sb.details ? { sandbox: sb.details } : {}) },
  }
}
