import { randomBytes } from 'node:crypto'
import { statSync } from 'node:fs'
import type { CallCheckpoints, CheckpointedCall } from '../tools/types'
import { Journal } from './journal'
import { checkpointsDir, type CheckpointTrigger, type TreeState } from './types'
import { Workspace, type WorkspaceOptions } from './workspace'

/** Where one session's checkpoints come from and go. */
export interface RecorderOptions {
  home: string
  sessionId: string
  projectPath: string
  env: NodeJS.ProcessEnv
  /** The session's transcript: its size at a checkpoint is the conversation then. */
  transcriptPath: string
  /** `fileCheckpointingEnabled` (Claude Code's setting), read at every checkpoint; false turns them off. */
  enabled(): boolean
  /**
   * Says, once per change, that checkpoints are not being saved (naming the folder and the error)
   * and when they are saved again (`info`). A call's own failure also goes on its tool card.
   */
  notice(message: string, level?: 'warning' | 'info'): void
  /** Watch the tree between snapshots (see {@link WorkspaceOptions.watch}); on unless false. */
  watch?: WorkspaceOptions['watch']
}

/**
 * Takes a session's checkpoints: one at every user prompt and one before every mutating call
 * (the main agent's and its subagents'), each followed by the tree the call left.
 *
 * Contract: snapshots run one at a time, in order, on one chain, so each sees the tree its
 * moment left. A call's checkpoint is awaited before the call runs (it must see the tree before
 * it), until the tree has been read — in git, into the private index; the tree object written
 * from that index and the journal line follow on the chain while the call runs. The tree it left is enqueued at once when the call ends and is not awaited by the call:
 * the next call's checkpoint waits for it on the chain, a PostToolUse hook (which may write
 * files) waits for it, and so does the model's next request ({@link landed}), so what changes
 * while the model answers is someone else's.
 * A prompt's checkpoint is not awaited either (no tool runs before the model answers). A call
 * is checkpointed at most once. A snapshot that fails never stops the call: the checkpoint is recorded as missing
 * and the failure is said once, on that call's card (when it failed after the tree was read,
 * once the call ended: {@link tail}). While snapshots fail (a full disk) the session is told once
 * that checkpoints are not being saved, and once when one is saved again. Never throws.
 */
export class CheckpointRecorder implements CallCheckpoints {
  private chain: Promise<unknown> = Promise.resolve()
  private readonly seen = new Set<string>()
  private turn: number | undefined
  readonly workspace: Workspace
  readonly journal: Journal

  constructor(private readonly o: RecorderOptions) {
    this.workspace = new Workspace({ ...o, watch: o.watch ?? true })
    this.journal = Journal.of(o.home, o.sessionId)
  }

  /** A checkpoint at the user's prompt, before it joins the conversation. */
  prompt(text: string): void {
    if (!this.enabled()) return
    const transcriptBytes = this.transcriptBytes()
    void this.enqueue(async () => {
      this.turn = (this.turn ?? (await this.lastTurn())) + 1
      await this.record({ kind: 'prompt', prompt: text.slice(0, 500) }, transcriptBytes)
    })
  }

  async before(call: CheckpointedCall): Promise<string | undefined> {
    if (this.seen.has(call.toolUseId) || !this.enabled()) return undefined
    this.seen.add(call.toolUseId)
    const transcriptBytes = this.transcriptBytes()
    let readNow = () => {}
    const read = new Promise<'read'>((resolve) => (readNow = () => resolve('read')))
    const state = this.enqueue(async () => {
      this.turn ??= await this.lastTurn()
      return this.record({ kind: 'tool', toolUseId: call.toolUseId, name: call.name, agentId: call.agentId, summary: call.summary.slice(0, 200) }, transcriptBytes, readNow)
    })
    // The call may run once the tree is read; the tree object and the journal line follow on the chain.
    const first = await Promise.race([read, state])
    if (first === 'read') {
      this.tails.set(call.toolUseId, state.then((late) => (late?.kind === 'missing' ? cardNote(late.reason) : undefined)))
      return undefined
    }
    if (first?.kind !== 'missing') return undefined
    return cardNote(first.reason)
  }

  /** What remained of a call's checkpoint once it was let run, by call: claimed by {@link tail}, else said in a notice by {@link after}. */
  private readonly tails = new Map<string, Promise<string | undefined>>()

  async tail(toolUseId: string): Promise<string | undefined> {
    const tail = this.tails.get(toolUseId)
    this.tails.delete(toolUseId)
    return tail
  }

  async after(toolUseId: string): Promise<void> {
    // A caller that did not ask for the tail (not the engine) still hears of its failure, once.
    const unclaimed = this.tails.get(toolUseId)
    this.tails.delete(toolUseId)
    void unclaimed?.then((note) => note && this.o.notice(note))
    const id = this.ids.get(toolUseId)
    if (id === undefined) return
    // At most one after-state per call, as at most one checkpoint.
    this.ids.delete(toolUseId)
    const step = this.enqueue(async () => {
      const after = await this.workspace.snapshot()
      try {
        this.journal.append({ type: 'after', id, at: new Date().toISOString(), after })
        this.saving(after)
      } catch (error) {
        this.saving({ kind: 'missing', reason: `the journal could not be written (${error instanceof Error ? error.message : String(error)})` })
      }
    })
    this.lastAfter = step
    await step
  }

  /**
   * Resolves once the trees the calls left so far are recorded. Only those: a prompt's checkpoint
   * still being taken stays off the critical path of a turn whose calls change nothing.
   */
  async landed(): Promise<void> {
    await this.lastAfter
  }

  private lastAfter: Promise<unknown> = Promise.resolve()

  /** Resolves once every snapshot asked for so far is recorded, and the commits that keep them are written. */
  async settled(): Promise<void> {
    await this.chain
    await this.workspace.flush()
  }

  private readonly ids = new Map<string, string>()

  /** Once every snapshot asked for is recorded, stops watching the tree (the session is closing). */
  async close(): Promise<void> {
    await this.settled()
    await this.workspace.close()
  }

  private async record(trigger: CheckpointTrigger, transcriptBytes: number, read?: () => void): Promise<TreeState> {
    // Known before the call may run: its after-state names this checkpoint.
    const id = `ck_${randomBytes(5).toString('hex')}`
    if (trigger.kind === 'tool') this.ids.set(trigger.toolUseId, id)
    const before = await this.workspace.snapshot(read)
    const { sessionId, projectPath } = this.o
    try {
      this.journal.append({ type: 'checkpoint', id, sessionId, projectPath, turn: this.turn ?? 0, at: new Date().toISOString(), trigger, before, transcriptBytes })
    } catch (error) {
      return this.saving({ kind: 'missing', reason: `the journal could not be written (${error instanceof Error ? error.message : String(error)})` })
    }
    return this.saving(before)
  }

  /** The reason checkpoints are failing, while they fail. */
  private failing: string | undefined

  /** Tells the session when saving checkpoints starts failing and when it works again, once each; returns `state`. */
  private saving(state: TreeState): TreeState {
    if (state.kind === 'missing') {
      if (this.failing === undefined) this.o.notice(`Checkpoints are not being saved to ${checkpointsDir(this.o.home)}: ${state.reason}. The session goes on and its files are untouched, but what happens until they are saved again cannot be rewound (free some space; Sous says when they are saved again).`)
      this.failing = state.reason
    } else if (this.failing !== undefined) {
      this.failing = undefined
      this.o.notice(`Checkpoints are saved again to ${checkpointsDir(this.o.home)}.`, 'info')
    }
    return state
  }

  private enqueue<T>(step: () => Promise<T>): Promise<T | undefined> {
    const run = this.chain.then(step).catch(() => undefined)
    this.chain = run
    return run
  }

  private enabled(): boolean {
    try {
      return this.o.enabled()
    } catch {
      return true
    }
  }

  private transcriptBytes(): number {
    try {
      return statSync(this.o.transcriptPath).size
    } catch {
      return 0
    }
  }

  private async lastTurn(): Promise<number> {
    return (await this.journal.read()).reduce((most, checkpoint) => Math.max(most, checkpoint.turn), 0)
  }
}

/** The line a call's card gets when its checkpoint could not be recorded. */
function cardNote(reason: string): string {
  return `Checkpoint not recorded before this call: ${reason}. The call ran anyway; this checkpoint cannot restore code.`
}
