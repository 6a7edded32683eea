import { readFile, stat } from 'node:fs/promises'
import { relative } from 'node:path'
import type { PermissionModeName } from '../../shared/ipc/session'
import type { ReminderSink } from '../context/reminders'
import { hashBytes, type FileStateCache } from '../tools/file-state'

/** What a session's reminders look at. */
export interface PromptRemindersOptions {
  projectRoot: string
  /** The files the agent has read, with what it saw. */
  fileState: FileStateCache
  /** The session's reminder queue: everything here goes through it, never a message rewrite. */
  sink: ReminderSink
  /** The permission mode now (a mode reminder still queued when the user switches again is dropped). */
  mode(): PermissionModeName
  /** How many of the most recently read files are checked per prompt (each costs a stat). */
  maxFilesChecked?: number
}

/** What the model is told about each permission mode when the user switches to it. */
const MODE_TEXT: Record<PermissionModeName, string> = {
  default: 'manual (default): edits, commands and other tools that change things ask the user first',
  acceptEdits: 'acceptEdits: file edits in the project are accepted without asking; commands still ask',
  // Until the classifier exists, auto asks as manual does; the model is told what really happens.
  auto: 'auto: this build has no auto-mode classifier, so edits, commands and other tools that change things ask the user first, as in manual mode',
  plan: 'plan: research and plan only; do not edit files or run commands that change anything until the user approves a plan',
  bypassPermissions: 'bypassPermissions: tools run without asking (deny rules still apply)',
  dontAsk: 'dontAsk: tools that would ask are refused instead; work with what is allowed',
}

/**
 * The reminders Claude Code sends with a user turn, computed when the user sends a prompt and
 * pushed to the session's reminder queue (so they ride on the newest user message and earlier
 * messages — the cached prefix — stay as they were):
 *
 * - files the agent read that changed since (the user, a formatter, a command) — once per change;
 * - the permission mode, when the user switched it (only the last switch before a prompt counts).
 *
 * (Plan mode and the task list remind through their own sources: `agents/plan-mode.ts`,
 * `context/task-reminders.ts`, and the task panel's edits through `user-task-edits.ts`.)
 */
export class PromptReminders {
  /** Path → the mtime:size already reported, so one change is reported once. */
  private readonly reported = new Map<string, string>()

  constructor(private readonly options: PromptRemindersOptions) {}

  /** The user switched the permission mode: the model hears of it with the next prompt. */
  modeChanged(mode: PermissionModeName): void {
    this.options.sink.push(`The user switched the permission mode to ${MODE_TEXT[mode]}.`, {
      source: 'mode-change',
      stillRelevant: () => this.options.mode() === mode,
    })
  }

  /** Before a prompt is sent: queues what changed since the model last looked. Never throws. */
  async beforePrompt(): Promise<void> {
    await this.changedFiles().catch(() => undefined)
  }

  private async changedFiles(): Promise<void> {
    const { fileState, projectRoot } = this.options
    const paths = fileState.recent(this.options.maxFilesChecked ?? 50)
    const changed = (await Promise.all(paths.map(async (path) => ((await this.changedSinceRead(path)) ? path : undefined)))).filter((path) => path !== undefined)
    if (changed.length === 0) return
    const names = changed.map((path) => `- ${relative(projectRoot, path).startsWith('..') ? path : relative(projectRoot, path)}`).join('\n')
    this.options.sink.push(
      `These files changed since you last read them (by the user, a formatter or a command), so what you saw of them is out of date. Read a file again before relying on it or editing it:\n${names}`,
      { source: 'files-changed' },
    )
  }

  /** Whether the file differs from what the agent saw, and this difference was not reported yet. */
  private async changedSinceRead(path: string): Promise<boolean> {
    const seen = this.options.fileState.get(path)
    if (!seen) return false
    let key: string
    try {
      const info = await stat(path)
      if (info.mtimeMs === seen.mtimeMs && info.size === seen.size) return false
      key = `${info.mtimeMs}:${info.size}`
      if (this.reported.get(path) === key) return false
      // A touch that changed nothing is no news.
      if (info.size === seen.size && hashBytes(await readFile(path)) === seen.hash) return false
    } catch {
      key = 'deleted'
      if (this.reported.get(path) === key) return false
    }
    this.reported.set(path, key)
    return true
  }
}
