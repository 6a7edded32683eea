import { stat } from 'node:fs/promises'
import { resolve } from 'node:path'
import type { AgentEvent } from '../shared/protocol/agent-event'
import { AppError } from '../shared/ipc/result'
import type { SessionManager } from '../main/session/session-manager'
import { SOUS_VERSION } from '../main/host/version'
import { parsePrintArgs, PRINT_USAGE, type PrintOptions } from './print-args'
import { failureLine, printText, proposedPlan, sandboxWarningLine, toPrintResult, verboseLine, type ProposedPlan } from './print-output'
import type { PermissionDenial } from './print-permissions'

/** Where headless mode reads and writes; the real process by default, buffers in tests. */
export interface PrintIO {
  stdout: { write(text: string): unknown }
  stderr: { write(text: string): unknown }
  /** Text piped on stdin, if any (read by the caller when stdin is not a TTY). */
  stdin?: string
  /** Aborting it stops the run (SIGINT). */
  signal?: AbortSignal
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
  const options: PrintOptions = { ...parsed.options, prompt: [parsed.options.prompt, io.stdin ?? ''].map((part) => part.trim()).filter(Boolean).join('\n\n') }
  if (!options.prompt) return usageError(io, 'no prompt: pass it as an argument or on stdin')
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
  const denials: PermissionDenial[] = []
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
    // Nobody can answer a question here: an ask is a denial, reported in the result.
    answerer: 'unattended',
    cliRules: { allowedTools: options.allowedTools, disallowedTools: options.disallowedTools },
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
    onDenial: (denial) => denials.push({ tool_name: denial.toolName, tool_use_id: denial.toolUseId, tool_input: denial.input }),
  })
  const manager = runtime.sessions
  try {
    const { sessionId, projectPath } = await openSession(manager, options, cwd, home)
    // No one is here to review the folder's own configuration, so (as Claude Code's -p) it is obeyed.
    if (options.verbose) io.stderr.write(`sous: headless mode treats ${projectPath} as trusted: its own .claude settings (hooks, allow rules, extra directories, sandbox settings) and .mcp.json servers apply without review.\n`)
    let plan: ProposedPlan | undefined
    const unsubscribe = hub.subscribe((channel, payload) => {
      if (channel !== 'agent.event') return
      plan = proposedPlan(payload as AgentEvent) ?? plan
      onEvent(io, options, payload as AgentEvent)
    })
    if (options.outputFormat === 'stream-json') {
      const mcpServers = runtime.mcp.peek(projectPath)?.states().map((state) => ({ name: state.name, status: state.status })) ?? []
      writeLine(io, { type: 'system', subtype: 'init', session_id: sessionId, cwd, model: config.value.model, permissionMode: options.permissionMode, mcp_servers: mcpServers })
    }
    const stop = () => void manager.abort(sessionId)
    io.signal?.addEventListener('abort', stop, { once: true })
    // A coordinator's answer comes once its workers have reported (each report is a turn of its own).
    const run = options.coordinator ? await manager.runSettled(sessionId, options.prompt, io.signal) : await manager.run(sessionId, options.prompt)
    io.signal?.removeEventListener('abort', stop)
    unsubscribe()
    const result = toPrintResult(run, sessionId, denials, performance.now() - started, plan)
    if (options.outputFormat === 'text') io.stdout.write(printText(run.resultText, plan))
    else writeLine(io, result, options.outputFormat === 'json' ? 2 : undefined)
    if (run.reason === 'completed') return 0
    io.stderr.write(`${failureLine(run)}\n`)
    return run.reason === 'aborted' ? 130 : 1
  } catch (error) {
    if (error instanceof AppError) return fail(io, `sous: ${error.message}`)
    throw error
  } finally {
    await runtime.dispose()
    await pty.dispose()
  }
}

async function openSession(manager: SessionManager, options: PrintOptions, cwd: string, home: string): Promise<{ sessionId: string; projectPath: string }> {
  if (options.resume && options.forkSession) {
    const { forkSession } = await import('./fork')
    return manager.resume(await forkSession(home, options.resume, options.at, cwd))
  }
  if (options.resume) return manager.resume(options.resume)
  if (options.continue) return manager.continueLatest(cwd)
  return { ...(await manager.create(cwd)), projectPath: cwd }
}

function onEvent(io: PrintIO, options: PrintOptions, event: AgentEvent): void {
  if (event.type === 'sandbox_unavailable') io.stderr.write(`${sandboxWarningLine(event)}\n`)
  // A refused budget or loop-brake setting, and a cap's 80 % warning, are said whatever the format.
  if (event.type === 'notice' && event.topic === 'budget' && !(options.verbose && options.outputFormat === 'text')) io.stderr.write(`sous: warning: ${event.message}\n`)
  if (options.outputFormat === 'stream-json') return writeLine(io, streamLine(event))
  if (options.verbose && options.outputFormat === 'text') {
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
