import type { ApprovalRequested, ApprovalResolution, HookRunInfo } from '../../../../shared/ipc/contract'
import type { AgentEvent } from '../../../../shared/protocol/agent-event'

/** The timeline's shapes (see `model.ts` for the fold that makes them). */

/** What a mark stands for (a tool call is `file` when it edits files, `command` when it runs one). */
export type MarkKind = 'turn' | 'tool' | 'file' | 'command' | 'hook' | 'compaction' | 'approval'

/** One step of the session. */
export interface Mark {
  /** Unique in the timeline: `turn:<id>`, `tool:<toolUseId>`, `hook:<n>`, `compaction:<n>`, `approval:<id>`. */
  id: string
  /** Position on the shared axis (0, 1, 2… in the order the marks began). */
  seq: number
  /** The lane: `main` or a subagent's id. */
  lane: string
  kind: MarkKind
  /** What it is, in one line ("Bash: npm test"); {@link markName} adds how it went. */
  label: string
  /** How it ended, when the state alone does not say (an approval's answer, a hook's exit code). */
  note?: string
  state: 'running' | 'done' | 'error'
  /** The card in the conversation it leads to: a turn, or a tool call of the main agent. */
  target: { turnId?: string; toolUseId?: string }
  /** Files changed at this step (as far as the events say: the edit tools name theirs). */
  files: string[]
  /** How many inputs had been folded when the mark began (a replay lands it there). */
  at: number
}

/** A row of the strip. */
export interface Lane {
  /** `main` or the subagent's id. */
  id: string
  label: string
  /** The lane whose call started it (none for `main`). */
  parent?: string
  /** The Agent call in the main conversation the lane hangs under (its card is where a click leads). */
  anchor?: string
  state: 'running' | 'done' | 'error'
}

/** Everything a timeline is folded from. */
export type TimelineInput =
  | { kind: 'event'; event: AgentEvent }
  | { kind: 'hook'; run: HookRunInfo }
  | { kind: 'approval'; request: ApprovalRequested }
  | { kind: 'approval_resolved'; id: string; outcome: ApprovalResolution }

export interface Timeline {
  sessionId: string
  lanes: Lane[]
  marks: Mark[]
  /** Inputs folded so far. */
  folded: number
  /** Where each mark is in `marks`, by id. */
  index: ReadonlyMap<string, number>
  /** Where each lane is in `lanes`, by id. */
  laneIndex: ReadonlyMap<string, number>
  /** Turns of the main agent seen so far (for their names). */
  turns: number
}

/** The main agent's lane id. */
export const MAIN_LANE = 'main'

/** A timeline with only the main lane. */
export function emptyTimeline(sessionId: string): Timeline {
  return {
    sessionId,
    lanes: [{ id: MAIN_LANE, label: 'Main agent', state: 'done' }],
    marks: [],
    folded: 0,
    index: new Map(),
    laneIndex: new Map([[MAIN_LANE, 0]]),
    turns: 0,
  }
}
