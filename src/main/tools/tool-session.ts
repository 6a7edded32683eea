import { FileStateCache } from './file-state'
import { ShellState } from './shell/shell-state'
import type { ToolContext } from './types'

/**
 * The per-session state the core tools keep: what was read, the Bash cwd and background shells.
 * The session creates one, spreads it into every ToolContext, and disposes it when it ends.
 */
export interface ToolSession {
  fileState: FileStateCache
  shell: ShellState
  dispose(): Promise<void>
}

export function createToolSession(options: { cwd: string }): ToolSession {
  const fileState = new FileStateCache()
  const shell = new ShellState(options.cwd)
  return { fileState, shell, dispose: () => shell.dispose() }
}

/** A complete context for a call, for hosts and tests: identity plus a session's state. */
export function createToolContext(session: ToolSession, base: Omit<ToolContext, 'fileState' | 'shell' | 'progress'> & Partial<Pick<ToolContext, 'progress'>>): ToolContext {
  return { progress: () => {}, ...base, fileState: session.fileState, shell: session.shell }
}
