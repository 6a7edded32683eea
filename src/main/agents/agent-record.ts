import type { PermissionModeName } from '../../shared/ipc/contract'
import type { AgentEndStatus, Usage } from '../../shared/protocol/agent-event'
import type { ContextManager } from '../compaction/manager'
import type { NestedInstructions } from '../context/nested-instructions'
import { zeroUsage } from '../engine/usage'
import type { PermissionGate } from '../governance/gate/gate'
import type { Message, TextBlock } from '../services/model/types'
import type { EffortLevel, ReasoningPreference } from '../services/model/capabilities'
import type { FileStateCache } from '../tools/file-state'
import type { ShellState } from '../tools/shell/shell-state'
import type { AnyTool, SubagentGrants } from '../tools/types'
import type { SubagentOutcome } from './run-subagent'
import type { TranscriptFile } from '../store/transcript-file'
import type { ApprovalAsker } from '../governance/approvals/queue'
import type { SessionGrants } from '../governance/decide/session'

/** What a subagent was made of: fixed when it starts, reused when it starts again. */
export interface AgentMake {
  id: string
  type: string
  description: string
  /** `main` or the id of the subagent whose call started it. */
  parentAgentId: string
  parentToolUseId?: string
  /** 1 for an agent the main agent started, 2 for one it started, … */
  depth: number
  /** A fork: a copy of its parent's conversation. A fork can never start agents. */
  fork: boolean
  model: string
  mode: PermissionModeName
  system: TextBlock[]
  tools: AnyTool[]
  maxTurns: number
  /** Omitted when it uses the loop's default. */
  maxTokens?: number
  /** Thinking and effort; omitted when it uses the session's preference. */
  reasoning?: ReasoningPreference
  /** The Agent call's `effort`: wins over the effort of `reasoning` (or the session's). Never set on a fork. */
  effort?: EffortLevel
  /** What it has read (a copy of its parent's when it started), so Edit and Write work on files it saw. */
  fileState: FileStateCache
  /** Allow rules it holds for its life, on top of the session's rules (a forked skill's `allowed-tools`). */
  grants?: SubagentGrants
  /** A teammate of an agent team: how it asks, and what happens when a run of it ends (see agents/team). */
  teammate?: TeammateLink
}

/**
 * What makes a subagent a teammate: its team, name and colour; an approval asker of its own (its
 * asks bubble to the lead through the mailboxes instead of going to the queue directly); and the
 * team's word when a run ends (Stop → idle), instead of a task notification to its parent.
 */
export interface TeammateLink {
  team: string
  name: string
  color: string
  asker(grants: SessionGrants): ApprovalAsker
  /** The mode its next run starts in, when the lead changed it (a mode_set_request, an approved plan). */
  mode?(): PermissionModeName | undefined
  /** Each run's gate as it opens: a mode the lead sets applies to the running turn too. */
  onGate?(gate: PermissionGate): void
  /** A run ended and no message waits: the teammate is idle (or stopped, or failed). */
  onRunEnd(outcome: SubagentOutcome): void
}

/** One run's own parts, released when the run ends. */
export interface RunParts {
  shell: ShellState
  gate: PermissionGate
  sidechain: TranscriptFile
  /** Undo what the run set up (watchers…). */
  release(): void
}

/**
 * One subagent of a session, across its runs: what it is, where it stands, and what it has said.
 * Its abort controller is chained to the signal of the turn that started it while it runs in the
 * foreground; moving to the background (or starting there) cuts that link, so the parent's turn
 * can end while it goes on. Stopping an agent is aborting its controller.
 */
export class AgentRecord {
  status: 'running' | AgentEndStatus = 'running'
  background: boolean
  controller = new AbortController()
  /** The current run (resolves with its outcome; never rejects). */
  done: Promise<SubagentOutcome> = Promise.resolve(idleOutcome())
  outcome: SubagentOutcome | undefined
  /** The conversation so far, to continue it with a message. */
  messages: Message[] = []
  /** Totals over every run. */
  usage: Usage = zeroUsage()
  costUsd = 0
  /** TaskOutput has shown how it ended, so no notification repeats it. */
  outputRead = false
  /** Messages for it (SendMessage, its background agents' notifications), read at its next turn boundary. */
  readonly inbox: string[] = []
  parts: RunParts | undefined
  /** Its context management, kept across its runs (its token count, compactions, circuit breaker). */
  context: ContextManager | undefined
  /** The subfolder CLAUDE.md files it loaded by touching files below them (its own: it has its own conversation). */
  nested: NestedInstructions | undefined
  /** With `isolation: "worktree"`: its worktree, while it exists (removed again when the agent changed nothing). */
  worktree: { path: string; branch: string } | undefined
  private unchain: (() => void) | undefined

  constructor(
    readonly make: AgentMake,
    background: boolean,
  ) {
    this.background = background
  }

  get id(): string {
    return this.make.id
  }

  get running(): boolean {
    return this.status === 'running'
  }

  /** A fresh controller for a new run; aborted with `signal` (the starting turn's) until {@link detach}. */
  beginRun(signal: AbortSignal | undefined): AbortSignal {
    this.controller = new AbortController()
    this.status = 'running'
    this.outcome = undefined
    this.outputRead = false
    this.detach()
    if (signal) {
      const onAbort = (): void => this.controller.abort()
      if (signal.aborted) onAbort()
      else {
        signal.addEventListener('abort', onAbort, { once: true })
        this.unchain = () => signal.removeEventListener('abort', onAbort)
      }
    }
    return this.controller.signal
  }

  /** Cuts the link to the starting turn's signal (the agent goes on in the background). */
  detach(): void {
    this.unchain?.()
    this.unchain = undefined
  }

  /** Records how a run ended. */
  finish(outcome: SubagentOutcome): void {
    this.detach()
    this.outcome = outcome
    this.status = outcome.status
    this.messages = outcome.messages
    this.usage = outcome.usage
    this.costUsd = outcome.costUsd
  }
}

function idleOutcome(): SubagentOutcome {
  return { status: 'completed', resultText: '', messages: [], usage: zeroUsage(), costUsd: 0, turns: 0, durationMs: 0 }
}
