import { stat } from 'node:fs/promises'
import { resolve } from 'node:path'
import type { AgentEvent } from '../shared/protocol/agent-event'
import { AppError } from '../shared/ipc/result'
import type { SessionManager } from '../main/session/session-manager'
import type { WorktreeDesk } from '../main/worktrees/desk'
import { startupMark } from '../main/base/startup-marks'
import { SOUS_VERSION } from '../main/host/version'
import { parsePrintArgs, PRINT_USAGE, type PrintOptions } from './print-args'
import { failureLine, inputErrorResult, printText, proposedPlan, sandboxWarningLine, toPrintResult, verboseLine, type ProposedPlan } from './print-output'
import { userTurnOf } from './print-input'
import { ClaudeStream } from './print-stream'
import { cappedLine, runWithBackground } from './print-background'
import { waitForMcpServers } from './print-mcp-wait'
import type { QueryResult } from '../main/engine/types'
import type { Message } from '../main/services/model/types'
import { permissionDenials, type PermissionDenial } from './print-permissions'

/** Where headless mode reads and writes; the real process by default, buffers in tests. */
export interface PrintIO {
  stdout: { write(text: string): unknown }
  stderr: { write(text: string): unknown }
  /** Text piped on stdin, if any (read by the caller when stdin is not a TTY). */
  stdin?: string
  /** Aborting it stops the run (SIGINT). */
  signal?: AbortSignal
  /** `--input-format stream-json`: stdin as lines while it is still open (multi-turn input); else `stdin` is split. */
  stdinLines?: AsyncIterable<string>
}

/**
 * `sous -p`: runs one agent turn without a UI and prints the outcome as text, JSON or a stream of
 * JSON lines. Returns the exit code: 0 when the turn completed; otherwise non-zero with a one-line
 * reason on stderr (2 for bad usage).
 */
export async function runPrint(argv: string[], env: NodeJS.ProcessEnv, io: PrintIO = defaultIO()): Promise<number> {
  const started = performance.now()
  // The SDK is the slowest import; start loading it while the rest is set up.
  const modelModule = import('../main/services/model/index')
  const parsed = parsePrintArgs(argv)
  if (parsed.ok === 'help') {
    io.stdout.write(`${PRINT_USAGE}\n`)
    return 0
  }
  if (!parsed.ok) return usageError(io, parsed.error)
  const streamInput = parsed.options.inputFormat === 'stream-json'
  // With stream-json input the turns come from stdin's lines; a prompt argument is the first turn.
  const options: PrintOptions = { ...parsed.options, prompt: [parsed.options.prompt, streamInput ? '' : (io.stdin ?? '')].map((part) => part.trim()).filter(Boolean).join('\n\n') }
  if (!options.prompt && !streamInput) return usageError(io, 'no prompt: pass it as an argument or on stdin')
  const cwd = resolve(options.cwd ?? process.cwd())
  if (!(await stat(cwd).catch(() => undefined))?.isDirectory()) return fail(io, `sous: --cwd is not a folder: ${cwd}`)

  const { resolveModelConfig } = await modelModule
  const config = resolveModelConfig(env, options.model ? { model: options.model } : {})
  if (!config.ok) return fail(io, `sous: ${config.error.message}`)

  const [{ createEventHub }, { createSessionRuntime }, { sousHome }, { NodePtyService }, { readChildEnvPolicy }] = await Promise.all([
    import('../main/base/event-hub'),
    import('../main/runtime/runtime'),
    import('../main/base/paths'),
    import('../main/pty/node-pty-service'),
    import('../main/workspace/preferences'),
  ])
  startupMark('modules')
  let claudeStream: ClaudeStream | undefined
  let streamSession: string | undefined
  const hub = createEventHub()
  const home = sousHome(env)
  // No child (Bash, hooks) gets the key this run talks to the model with, or what the user marked.
  const childEnv = () => readChildEnvPolicy(home)
  const pty = new NodePtyService({ childEnv, env })
  const runtime = createSessionRuntime({
    home,
    childEnv,
    env,
    hub,
    pty,
    permissionMode: options.permissionMode,
    ...(options.permissionModeGiven && { permissionModeFlag: options.permissionMode }),
    // Nobody can answer a question here: an ask is a denial, reported in the result.
    answerer: 'unattended',
    cliRules: { allowedTools: options.allowedTools, disallowedTools: options.disallowedTools, ...(options.settings !== undefined && { settings: options.settings }) },
    model: config.value.model,
    maxTurns: options.maxTurns,
    appendSystemPrompt: options.appendSystemPrompt,
    version: SOUS_VERSION,
    // The environment's home (what os.homedir() reads in a real run): ~/.claude skills, commands,
    // settings, plans, CLAUDE.md.
    ...(env['HOME'] ? { userHome: env['HOME'] } : {}),
    // File names are relative to where `sous` was started; JSON texts pass as they are.
    mcpConfigs: options.mcpConfigs.map((config) => (config.trimStart().startsWith('{') ? config : resolve(config))),
    strictMcpConfig: options.strictMcpConfig,
    ...(options.coordinator && { coordinator: true }),
    ...((options.maxBudgetUsd !== undefined || options.maxTokensBudget !== undefined) && {
      budget: { ...(options.maxBudgetUsd !== undefined && { sessionUsd: options.maxBudgetUsd }), ...(options.maxTokensBudget !== undefined && { sessionTokens: options.maxTokensBudget }) },
    }),
    ...(options.effort && { effort: options.effort }),
    ...(options.outputFormat === 'stream-json' && { onMessage: (sessionId: string, message: Message) => sessionId === streamSession && claudeStream?.onMessage(message) }),
  })
  const manager = runtime.sessions
  // A transcript the disk refuses is said on stderr whatever the format, up to the session's close
  // (which says what could not be saved at all), so this listener outlives the run's own.
  const stopStorage = hub.subscribe((channel, payload) => {
    const event = payload as AgentEvent
    if (channel === 'agent.event' && event.type === 'notice' && event.topic === 'storage') io.stderr.write(`sous: ${event.level === 'info' ? 'note' : event.level}: ${event.message}\n`)
  })
  try {
    const { sessionId, projectPath, notes } = await openSession(runtime, options, cwd, home)
    for (const note of notes ?? []) io.stderr.write(`sous: ${note}\n`)
    // In a worktree the session works there, and says so as Claude Code's init line does.
    const sessionCwd = options.worktree ? projectPath : cwd
    // No one is here to review the folder's own configuration, so (as Claude Code's -p) it is obeyed.
    const permissionMode = manager.permissionMode(sessionId) ?? options.permissionMode
    if (options.verbose) io.stderr.write(`sous: headless mode treats ${projectPath} as trusted: its own .claude settings (hooks, allow rules, extra directories, sandbox settings) and .mcp.json servers apply without review.\n`)
    let plan: ProposedPlan | undefined
    // Events during the wait for MCP servers (their notices) come after the init line, which names the servers' state.
    let held: AgentEvent[] | undefined = []
    const handle = (event: AgentEvent): void => {
      plan = proposedPlan(event) ?? plan
      if (claudeStream && event.sessionId === sessionId) claudeStream.onEvent(event)
      onEvent(io, options, event)
    }
    const unsubscribe = hub.subscribe((channel, payload) => {
      if (channel !== 'agent.event') return
      if (held) held.push(payload as AgentEvent)
      else handle(payload as AgentEvent)
    })
    // The first request is offered the servers' tools (each server bounded by MCP_TIMEOUT).
    await waitForMcpServers(runtime.mcp.peek(projectPath), env, io)
    const mcpServers = runtime.mcp.peek(projectPath)?.states().map((state) => ({ name: state.name, status: state.status })) ?? []
    if (options.outputFormat === 'sous-events') {
      writeLine(io, { type: 'system', subtype: 'init', session_id: sessionId, cwd: sessionCwd, model: config.value.model, permissionMode, mcp_servers: mcpServers })
    }
    if (options.outputFormat === 'stream-json') {
      streamSession = sessionId
      claudeStream = new ClaudeStream((line) => writeLine(io, line), { sessionId, partial: options.includePartialMessages })
      claudeStream.init({ sessionId, cwd: sessionCwd, model: config.value.model, permissionMode, tools: await manager.toolNames(sessionId), mcpServers, version: SOUS_VERSION })
    }
    for (const event of held.splice(0)) handle(event)
    held = undefined
    // The session's one denial log (its gates' and answerer's refusals), read when a result is written.
    const denials = (): PermissionDenial[] => permissionDenials(manager.parts(sessionId)?.denials.entries ?? [])
    const stop = () => void manager.abort(sessionId)
    io.signal?.addEventListener('abort', stop, { once: true })
    try {
      if (streamInput) return await runStreamInput({ io, options, manager, sessionId, denials, started })
      // A coordinator's answer comes once its workers have reported (each report is a turn of its own).
      if (options.coordinator) {
        const run = await manager.runSettled(sessionId, options.prompt, io.signal)
        if (options.outputFormat === 'text') io.stdout.write(printText(run.resultText, plan))
        else writeLine(io, toPrintResult(run, sessionId, denials(), performance.now() - started, plan), options.outputFormat === 'json' ? 2 : undefined)
        return exitCode(io, run)
      }
      // Otherwise the run stays up for the agent's background work, each end a notification turn.
      let turns = 0
      const { combined, capped } = await runWithBackground({
        manager,
        sessionId,
        prompt: options.prompt,
        maxWaitS: options.maxBackgroundWait,
        ...(io.signal && { signal: io.signal }),
        // Claude Code prints each turn's text, a blank line between; stream-json a result line per turn.
        onTurn: (turn) => {
          if (options.outputFormat === 'text') io.stdout.write(`${turns > 0 ? '\n' : ''}${printText(turn.resultText, turns > 0 ? undefined : plan)}`)
          if (options.outputFormat === 'stream-json') writeLine(io, toPrintResult(turn, sessionId, denials(), performance.now() - started, turns > 0 ? undefined : plan))
          turns++
        },
        onEnd: (end) => claudeStream?.taskNotification(end.notice),
      })
      const result = toPrintResult(combined, sessionId, denials(), performance.now() - started, plan)
      if (capped) {
        Object.assign(result, { subtype: 'error_during_execution', is_error: true, terminal_reason: 'background_wait_exceeded', error: `sous: ${cappedLine(capped)}` })
        if (options.outputFormat !== 'text') writeLine(io, result, options.outputFormat === 'json' ? 2 : undefined)
        io.stderr.write(`sous: ${cappedLine(capped)}\n`)
        return 1
      }
      if (options.outputFormat === 'json' || options.outputFormat === 'sous-events') writeLine(io, result, options.outputFormat === 'json' ? 2 : undefined)
      return exitCode(io, combined)
    } finally {
      io.signal?.removeEventListener('abort', stop)
      unsubscribe()
    }
  } catch (error) {
    if (error instanceof AppError) return fail(io, `sous: ${error.message}`)
    throw error
  } finally {
    await runtime.dispose()
    stopStorage()
    await pty.dispose()
  }
}

async function openSession(runtime: { sessions: SessionManager; worktrees: WorktreeDesk }, options: PrintOptions, cwd: string, home: string): Promise<{ sessionId: string; projectPath: string; notes?: string[] }> {
  const manager = runtime.sessions
  // `-w/--worktree`: a session of the new worktree's folder, so every edit lands there.
  if (options.worktree) {
    const created = await runtime.worktrees.createSession(cwd, { ...(options.worktree.name && { name: options.worktree.name }) })
    return { sessionId: created.sessionId, projectPath: created.worktree.path, notes: [`working in the worktree ${created.worktree.path} on branch ${created.worktree.branch}`, ...created.notes] }
  }
  if (options.resume && options.forkSession) {
    const { forkSession } = await import('./fork')
    return manager.resume(await forkSession(home, options.resume, options.at, cwd))
  }
  if (options.resume) return manager.resume(options.resume)
  if (options.continue) return manager.continueLatest(cwd)
  return { ...(await manager.create(cwd)), projectPath: cwd }
}

/** `--input-format stream-json`: each line a user message, each a turn with its own result line. */
async function runStreamInput(o: { io: PrintIO; options: PrintOptions; manager: SessionManager; sessionId: string; denials(): PermissionDenial[]; started: number }): Promise<number> {
  const { io, options, manager, sessionId } = o
  let failed = false
  let number = 0
  const turn = async (text: string): Promise<void> => {
    const run = await manager.run(sessionId, text)
    writeLine(io, toPrintResult(run, sessionId, o.denials(), performance.now() - o.started))
    if (run.reason !== 'completed') failed = true
  }
  if (options.prompt) await turn(options.prompt)
  for await (const line of o.io.stdinLines ?? (io.stdin ?? '').split('\n')) {
    number++
    if (line.trim() === '' || io.signal?.aborted) continue
    const read = userTurnOf(line)
    if (!read.ok) {
      failed = true
      writeLine(io, inputErrorResult(sessionId, `stdin line ${number}: ${read.error}`))
      continue
    }
    await turn(read.text)
  }
  return io.signal?.aborted ? 130 : failed ? 1 : 0
}

function onEvent(io: PrintIO, options: PrintOptions, event: AgentEvent): void {
  if (event.type === 'sandbox_unavailable') io.stderr.write(`${sandboxWarningLine(event)}\n`)
  // A refused budget or loop-brake setting, and a cap's 80 % warning, are said whatever the format.
  if (event.type === 'notice' && event.topic === 'budget' && !(options.verbose && options.outputFormat === 'text')) io.stderr.write(`sous: warning: ${event.message}\n`)
  if (options.outputFormat === 'sous-events') return writeLine(io, streamLine(event))
  if (options.verbose && options.outputFormat === 'text' && !(event.type === 'notice' && event.topic === 'storage')) {
    const line = verboseLine(event)
    if (line) io.stderr.write(`${line}\n`)
  }
}

/**
 * One `stream-json` line: the event, with Claude Code's `parent_tool_use_id` — the Agent call a
 * subagent's event belongs to, `null` for the main agent's — so a reader can nest or drop them.
 */
export function streamLine(event: AgentEvent): AgentEvent & { parent_tool_use_id: string | null } {
  return { ...event, parent_tool_use_id: event.parentToolUseId ?? null }
}

function writeLine(io: PrintIO, value: unknown, indent?: number): void {
  io.stdout.write(`${JSON.stringify(value, null, indent)}\n`)
}

/** 0 for a completed run; else its reason on stderr, and 130 (stopped) or 1. */
function exitCode(io: PrintIO, run: QueryResult): number {
  if (run.reason === 'completed') return 0
  io.stderr.write(`${failureLine(run)}\n`)
  return run.reason === 'aborted' ? 130 : 1
}

function usageError(io: PrintIO, message: string): number {
  io.stderr.write(`sous: ${message}\nRun 'sous -p --help' for usage.\n`)
  return 2
}

function fail(io: PrintIO, line: string): number {
  io.stderr.write(`${line}\n`)
  return 1
}

function defaultIO(): PrintIO {
  return { stdout: process.stdout, stderr: process.stderr }
}
