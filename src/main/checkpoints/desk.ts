import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { AppError } from '../../shared/ipc/result'
import type { CheckpointRow, PreviewFile } from '../../shared/ipc/checkpoints'
import { readCheckpoints, summarizeCheckpoints } from './checkpoint-list'
import { forkAt, promptTurnIds, rewindConversation } from './conversation'
import { findCheckpoint, type RewindMode } from './rewind'
import { applyRestore, type RestoreOutcome } from './restore-apply'
import { planRestore, type RestorePlan } from './restore-plan'
import type { Checkpoint } from './types'
import { Workspace } from './workspace'

/** A file larger than this is restored whole in the preview (no per-hunk diff). */
const PREVIEW_TEXT_BYTES = 1024 * 1024
/** At most this many files get both sides in a preview; the rest are restored whole. */
const PREVIEW_TEXT_FILES = 200

/** At most this many of a call's changed files are named (an `npm install` changes thousands). */
const CALL_FILES = 50

/** What the app chose in the preview. */
export interface RestoreChoice {
  sessionId: string
  checkpointId: string
  mode: RewindMode
  /** The files chosen; default every change. */
  paths?: readonly string[]
  /** Conflicts to overwrite; the others are kept. */
  overwrite?: readonly string[]
  /** Text to write instead of the checkpoint's (some hunks deselected). */
  contents?: Readonly<Record<string, string>>
}

/** What the desk asks of the session manager (the sessions are a higher layer: this is its shape, not its type). */
export interface DeskSessions {
  /** Whether a turn runs in a session open here. */
  isBusy?(sessionId: string): boolean
  /** Runs `work` with a live session closed, then opens it again. */
  whileClosed?<T>(sessionId: string, work: () => Promise<T>): Promise<T>
}

/**
 * The app's side of checkpoints (`checkpoints.*`): the list for the rewind picker, the preview
 * of a restore (both sides of each text file, for the per-hunk view), the restore with the
 * user's choices, and fork. Each answer reads the journal again, so the desk keeps no state.
 *
 * Contract: nothing is written while a turn runs in the session (CONFLICT), and a refusal of the
 * plan (HEAD moved, a damaged store) writes nothing. Rewinding the conversation of an open
 * session closes it, rewrites its transcript and opens it again, so its next turn continues from
 * the checkpoint.
 */
export class CheckpointDesk {
  constructor(private readonly o: { home: string; env: NodeJS.ProcessEnv; sessions?: DeskSessions }) {}

  /** The session's checkpoints with what each changed, prompt checkpoints with their turn's id. */
  async list(sessionId: string): Promise<{ checkpoints: CheckpointRow[] }> {
    const { checkpoints } = await this.find(sessionId)
    if (checkpoints.length === 0) return { checkpoints: [] }
    const [summaries, turns] = await Promise.all([summarizeCheckpoints(this.workspace(sessionId, checkpoints[0]!.projectPath), checkpoints), promptTurnIds(this.o.home, checkpoints)])
    return { checkpoints: summaries.map((summary) => ({ ...summary, ...(turns.has(summary.id) && { turnId: turns.get(summary.id) }) })) }
  }

  /**
   * The files one call changed: its checkpoint's before-state against the tree it left. Read only;
   * answers while a turn runs (the timeline asks on hover).
   */
  async callFiles(sessionId: string, toolUseId: string): Promise<{ state: 'recorded' | 'pending' | 'missing' | 'none'; files: string[]; more: number }> {
    const checkpoints = await readCheckpoints(this.o.home, sessionId)
    const checkpoint = checkpoints.find((found) => found.trigger.kind === 'tool' && found.trigger.toolUseId === toolUseId)
    if (!checkpoint) return { state: 'none', files: [], more: 0 }
    if (!checkpoint.after) return { state: 'pending', files: [], more: 0 }
    if (checkpoint.before.kind === 'missing' || checkpoint.after.kind === 'missing') return { state: 'missing', files: [], more: 0 }
    const files = await this.workspace(sessionId, checkpoint.projectPath).diff(checkpoint.before, checkpoint.after).catch(() => undefined)
    if (!files) return { state: 'missing', files: [], more: 0 }
    return { state: 'recorded', files: files.slice(0, CALL_FILES), more: Math.max(0, files.length - CALL_FILES) }
  }

  /** What restoring the checkpoint's code would change; nothing is written. */
  async preview(sessionId: string, checkpointId: string): Promise<{ files: PreviewFile[]; skipped: RestorePlan['skipped'] }> {
    this.idle(sessionId)
    const { plan } = await this.plan(sessionId, checkpointId)
    const conflicts = new Set(plan.conflicts)
    const workspace = this.workspace(sessionId, plan.checkpoint.projectPath)
    const texts = plan.changes.slice(0, PREVIEW_TEXT_FILES).filter((change) => plain(change.entry?.mode) && plain(plan.current.get(change.path)?.mode))
    const ids = texts.flatMap((change) => (change.entry ? [change.entry.id] : []))
    const { contents } = await workspace.blobs(plan.store, ids)
    const withText = new Set(texts.map((change) => change.path))
    const files: PreviewFile[] = []
    for (const change of plan.changes) {
      const file: PreviewFile = { path: change.path, change: !change.entry ? 'delete' : plan.current.has(change.path) ? 'restore' : 'create', conflict: conflicts.has(change.path) }
      if (withText.has(change.path)) {
        const target = change.entry ? contents.get(change.entry.id) : Buffer.alloc(0)
        const current = plan.current.has(change.path) ? await readFile(join(plan.root, change.path)).catch(() => undefined) : Buffer.alloc(0)
        if (target && current && isText(target) && isText(current)) {
          file.current = current.toString('utf8')
          file.target = target.toString('utf8')
        }
      }
      files.push(file)
    }
    return { files, skipped: plan.skipped }
  }

  /**
   * Restores with the user's choices, both or neither: the code's files are staged, then the
   * conversation is rewound, then the project changes; a refusal of either (a full disk) leaves the
   * project and the transcript as they were.
   */
  async restore(choice: RestoreChoice): Promise<RestoreOutcome & { messages?: number }> {
    this.idle(choice.sessionId)
    const found = await this.find(choice.sessionId, choice.checkpointId)
    const checkpoint = found.checkpoints[found.index]!
    let outcome: RestoreOutcome = { restored: [], kept: [], skipped: [] }
    const rewindTranscript = () => rewindConversation(this.o.home, checkpoint)
    let messages: number | undefined
    let refused: AppError | undefined
    const conversation = async () => {
      messages = await (this.o.sessions?.whileClosed ? this.o.sessions.whileClosed(choice.sessionId, rewindTranscript) : rewindTranscript()).catch((error: unknown) => {
        refused = error instanceof AppError ? error : new AppError('CONFLICT', `the conversation could not be rewound: ${error instanceof Error ? error.message : String(error)}; nothing was changed`)
        throw refused
      })
    }
    if (choice.mode !== 'conversation') {
      const { plan, workspace } = await this.plan(choice.sessionId, choice.checkpointId)
      const contents = new Map(Object.entries(choice.contents ?? {}).map(([path, text]) => [path, Buffer.from(text, 'utf8')]))
      const applied = await applyRestore(workspace, plan, {
        ...(choice.paths && { only: new Set(choice.paths) }),
        overwrite: new Set(choice.overwrite ?? []),
        contents,
        ...(choice.mode === 'both' && { beforeChanging: conversation }),
      }).catch((error: Error) => {
        if (refused) throw refused
        return { error: `the restore failed part way: ${error.message}` }
      })
      if ('error' in applied) throw new AppError('CONFLICT', applied.error)
      outcome = applied
    } else await conversation()
    if (choice.mode === 'code') return outcome
    return { ...outcome, messages: messages! }
  }

  /** A new session whose conversation ends at the checkpoint; returns its id. */
  async fork(sessionId: string, checkpointId: string): Promise<{ sessionId: string }> {
    const found = await this.find(sessionId, checkpointId)
    try {
      return { sessionId: await forkAt(this.o.home, found.checkpoints[found.index]!) }
    } catch (error) {
      throw new AppError('CONFLICT', `the session could not be forked: ${error instanceof Error ? error.message : String(error)}`)
    }
  }

  private async find(sessionId: string, checkpointId?: string): Promise<{ checkpoints: Checkpoint[]; index: number }> {
    if (checkpointId === undefined) return { checkpoints: await readCheckpoints(this.o.home, sessionId), index: -1 }
    const found = await findCheckpoint(this.o.home, sessionId, checkpointId)
    if ('error' in found) throw new AppError('NOT_FOUND', found.error)
    return found
  }

  private async plan(sessionId: string, checkpointId: string): Promise<{ plan: RestorePlan; workspace: Workspace }> {
    const found = await this.find(sessionId, checkpointId)
    const workspace = this.workspace(sessionId, found.checkpoints[found.index]!.projectPath)
    const plan = await planRestore(workspace, found.checkpoints, found.index)
    if ('error' in plan) throw new AppError('CONFLICT', plan.error)
    return { plan, workspace }
  }

  private workspace(sessionId: string, projectPath: string): Workspace {
    return new Workspace({ home: this.o.home, sessionId, projectPath, env: this.o.env })
  }

  private idle(sessionId: string): void {
    if (this.o.sessions?.isBusy?.(sessionId)) throw new AppError('CONFLICT', 'A turn is running in this session: stop it before rewinding.')
  }
}

/** A regular file (not a symlink or submodule), or no file. */
function plain(mode: string | undefined): boolean {
  return mode === undefined || mode === '100644' || mode === '100755'
}

/** Small enough and valid UTF-8 without NUL bytes: shown as text. */
function isText(bytes: Buffer): boolean {
  if (bytes.length > PREVIEW_TEXT_BYTES || bytes.includes(0)) return false
  try {
    new TextDecoder('utf8', { fatal: true }).decode(bytes)
    return true
  } catch {
    return false
  }
}
