import { relative, resolve } from 'node:path'
import type { HookInfo, HookRunInfo, HooksOverview } from '../../../shared/ipc/contract'
import type { HookLog, HookLogEntry } from './log'
import { hookEventProblem } from '../hook-events'
import { handlerText, notRunBySous } from './runner'
import { loadSettings } from '../settings/load'
import { readProjectConfig } from '../trust/project-config'

/** How many of a project's latest hook runs the inspector shows. */
const RUNS_SHOWN = 50
/** Each of a run's stdin, stdout and stderr is cut here (the contract says so). */
const TEXT_SHOWN = 8000

/** What {@link hooksOverview} reads with. */
export interface HookInspectorOptions {
  sousHome: string
  userHome: string
  /** `assume` headless (the project's own hooks run as they are); `check` otherwise. */
  projectTrust: 'check' | 'assume'
  log: HookLog
}

/**
 * The hook inspector's view of a project: every configured hook per event with the file it comes
 * from and whether it runs (a project's own hooks wait for the trust step; `disableAllHooks` stops
 * them all; a broken file's hooks never run), and the latest runs in this project's sessions.
 * Reads the settings as governance does, so what it says runs is what runs. Never throws.
 */
export function hooksOverview(projectPath: string, options: HookInspectorOptions): HooksOverview {
  const root = resolve(projectPath)
  const { settings, diagnostics } = loadSettings(root, { sousHome: options.sousHome, home: options.userHome, projectTrust: options.projectTrust })
  const off = settings.disableAllHooks ? 'disableAllHooks is set in a settings file' : undefined
  const hooks: HookInfo[] = settings.hooks.map((hook) => {
    // A handler Sous cannot run says so, whatever else holds; an event Sous never fires too.
    const reason = notRunBySous(hook.handler) ?? neverFired(hook.event) ?? off
    return {
      event: hook.event,
      ...(hook.matcher && { matcher: hook.matcher }),
      command: handlerText(hook.handler),
      source: hook.source,
      ...(hook.file && { file: hook.file }),
      applies: reason === undefined,
      ...(reason && { reason }),
    }
  })
  if (settings.trust.state === 'untrusted') {
    for (const hook of readProjectConfig(root).summary.hooks) {
      hooks.push({
        event: hook.event,
        ...(hook.matcher && { matcher: hook.matcher }),
        command: hook.command,
        source: hook.file.endsWith('settings.local.json') ? 'local' : 'project',
        file: resolve(root, hook.file),
        applies: false,
        reason: 'waits until you trust this folder (Review project trust…)',
      })
    }
  }
  const runs = options.log
    .entries()
    .filter((entry) => entry.projectRoot !== undefined && resolve(entry.projectRoot) === root)
    .slice(-RUNS_SHOWN)
    .map(toHookRun)
  const problems = diagnostics.filter((diagnostic) => diagnostic.level === 'error').map((diagnostic) => `${diagnostic.file ? `${relativeTo(root, diagnostic.file)}: ` : ''}${diagnostic.message}`)
  return { hooks: hooks.sort((a, b) => eventOrder(a.event) - eventOrder(b.event)), runs, disabled: settings.disableAllHooks, problems }
}

/** One log entry as the contract carries it (long texts cut). */
export function toHookRun(entry: HookLogEntry): HookRunInfo {
  return {
    at: entry.at,
    ...(entry.sessionId && { sessionId: entry.sessionId }),
    event: entry.event,
    ...(entry.matcher && { matcher: entry.matcher }),
    command: entry.command,
    ...(entry.source && { source: entry.source }),
    exitCode: entry.exitCode,
    durationMs: Math.round(entry.durationMs),
    timedOut: entry.timedOut,
    input: cut(safeJson(entry.input)),
    stdout: cut(entry.stdout),
    stderr: cut(entry.stderr),
    ...(entry.error && { error: entry.error }),
  }
}

function neverFired(event: string): string | undefined {
  return hookEventProblem(event)
}

/** Claude Code's order of events, so the inspector lists them as a session meets them. */
const EVENT_ORDER = ['SessionStart', 'UserPromptSubmit', 'PreModelSwitch', 'PostModelSwitch', 'PreToolUse', 'PermissionRequest', 'PostToolUse', 'PostToolUseFailure', 'Notification', 'SubagentStart', 'SubagentStop', 'PreCompact', 'PostCompact', 'Stop', 'SessionEnd']

function eventOrder(event: string): number {
  const index = EVENT_ORDER.indexOf(event)
  return index === -1 ? EVENT_ORDER.length : index
}

function cut(text: string): string {
  return text.length > TEXT_SHOWN ? `${text.slice(0, TEXT_SHOWN)}… (${text.length - TEXT_SHOWN} more characters)` : text
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? ''
  } catch {
    return String(value)
  }
}

function relativeTo(root: string, file: string): string {
  const path = relative(root, file)
  return path.startsWith('..') ? file : path
}
