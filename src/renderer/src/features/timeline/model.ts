import type { ApprovalRequested, ApprovalResolution, HookRunInfo } from '../../../../shared/ipc/contract'
import type { AgentEvent } from '../../../../shared/protocol/agent-event'
import { layerName } from '../../../../shared/protocol/compaction'

/**
 * The session timeline as data: every turn, tool call, file change, terminal command, hook firing,
 * compaction and approval as a mark on one shared axis, the main agent on the first lane and each
 * subagent on a lane of its own. A pure fold ({@link foldTimeline}) over what the renderer already
 * hears — the agent's events, the hook runs and the approvals — so a live session and a stored one
 * (its transcripts read back) give the same marks. Marks that did not change keep their identity,
 * so a view that memoizes them re-renders only what moved.
 */

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

/** Tools that change files and name them in their input. */
const EDIT_TOOLS = new Set(['Edit', 'MultiEdit', 'Write', 'NotebookEdit'])
const COMMAND_TOOLS = new Set(['Bash', 'BashOutput'])
const LABEL_CHARS = 80

/**
 * Folds a batch of inputs into the timeline. Pure: returns a new timeline (sharing every mark and
 * lane it did not change), or the same one when nothing in the batch makes or changes a mark.
 */
export function foldTimeline(timeline: Timeline, inputs: readonly TimelineInput[]): Timeline {
  const draft = new Draft(timeline)
  for (const input of inputs) draft.apply(input)
  return draft.result()
}

/** Copy-on-write over one timeline: the arrays and maps are copied once, on the first change. */
class Draft {
  private marks: Mark[] | undefined
  private lanes: Lane[] | undefined
  private index: Map<string, number> | undefined
  private laneIndex: Map<string, number> | undefined
  private turns: number
  private folded: number

  constructor(private readonly base: Timeline) {
    this.turns = base.turns
    this.folded = base.folded
  }

  result(): Timeline {
    if (!this.marks && !this.lanes) return this.folded === this.base.folded ? this.base : { ...this.base, folded: this.folded }
    return {
      sessionId: this.base.sessionId,
      marks: this.marks ?? this.base.marks,
      lanes: this.lanes ?? this.base.lanes,
      index: this.index ?? this.base.index,
      laneIndex: this.laneIndex ?? this.base.laneIndex,
      turns: this.turns,
      folded: this.folded,
    }
  }

  apply(input: TimelineInput): void {
    this.folded++
    switch (input.kind) {
      case 'event':
        return this.event(input.event)
      case 'hook':
        return this.hook(input.run)
      case 'approval': {
        const { request } = input
        const lane = request.agent?.id ?? MAIN_LANE
        this.add({ id: `approval:${request.id}`, lane, kind: 'approval', label: `Approval for ${request.toolName}`, state: 'running', target: this.targetOf(lane, request.toolUseId), files: [] })
        return
      }
      case 'approval_resolved':
        return this.update(`approval:${input.id}`, (mark) => ({ ...mark, note: outcomeWord(input.outcome), state: input.outcome === 'rejected' ? 'error' : 'done' }))
    }
  }

  private event(event: AgentEvent): void {
    if (event.sessionId !== this.base.sessionId) return
    const lane = event.parentToolUseId ? event.agentId : MAIN_LANE
    switch (event.type) {
      case 'turn_start':
        // A subagent's turns are its lane; only the main agent's prompts are turns of the session.
        if (lane !== MAIN_LANE || this.currentIndex().has(`turn:${event.turnId}`)) return
        this.turns++
        this.add({ id: `turn:${event.turnId}`, lane, kind: 'turn', label: `Turn ${this.turns}: ${oneLine(event.prompt)}`, state: 'running', target: { turnId: event.turnId }, files: [] })
        return
      case 'turn_end':
        if (lane !== MAIN_LANE) return
        this.settleLastTurn(event.reason === 'completed' || event.reason === 'aborted' ? 'done' : 'error')
        return
      case 'tool_use_start':
        this.tool(event.toolUseId, lane, event.name, undefined)
        return
      case 'tool_state':
        this.tool(event.toolUseId, lane, event.name, event.input, event.summary)
        return
      case 'tool_end':
        this.tool(event.toolUseId, lane, event.name, undefined)
        this.update(`tool:${event.toolUseId}`, (mark) => {
          const file = (event.details as { filePath?: unknown } | undefined)?.filePath
          // Read names its file in its details too: only an edit tool's file changed.
          const files = mark.kind === 'file' && typeof file === 'string' && !event.isError && !mark.files.includes(file) ? [...mark.files, file] : mark.files
          return { ...mark, files, state: event.isError ? 'error' : 'done' }
        })
        return
      case 'compaction':
        this.add({ id: `compaction:${this.folded}`, lane, kind: 'compaction', label: `Compaction (${layerName(event.layer)})${event.status === 'done' ? '' : ` — ${event.status}`}`, state: event.status === 'done' ? 'done' : 'error', target: this.targetOf(lane, undefined), files: [] })
        return
      case 'shell_start':
        this.add({ id: `shell:${event.agentId}:${event.shellId}`, lane, kind: 'command', label: `Background command: ${oneLine(event.command)}`, state: 'running', target: this.targetOf(lane, undefined), files: [] })
        return
      case 'shell_end':
        this.update(`shell:${event.agentId}:${event.shellId}`, (mark) => ({ ...mark, state: event.status === 'completed' ? 'done' : 'error', note: event.status }))
        return
      case 'agent_start':
        this.startLane(event)
        return
      case 'agent_end':
        this.updateLane(event.agentId, (found) => ({ ...found, state: event.status === 'completed' ? 'done' : 'error' }))
        return
      default:
        return
    }
  }

  private hook(run: HookRunInfo): void {
    if (run.sessionId !== undefined && run.sessionId !== this.base.sessionId) return
    const toolUseId = toolUseIdOf(run.input)
    const owner = toolUseId ? this.currentMark(`tool:${toolUseId}`) : undefined
    const lane = owner?.lane ?? MAIN_LANE
    const failed = run.error !== undefined || run.timedOut || (run.exitCode !== null && run.exitCode !== 0)
    this.add({
      id: `hook:${this.folded}`,
      lane,
      kind: 'hook',
      label: `Hook ${run.event}${run.matcher ? ` (${run.matcher})` : ''}: ${oneLine(run.command)}`,
      ...(failed && { note: run.error ?? (run.timedOut ? 'timed out' : `exit ${run.exitCode}`) }),
      state: failed ? 'error' : 'done',
      target: owner ? owner.target : this.lastTurnTarget(),
      files: [],
    })
  }

  private tool(toolUseId: string, lane: string, name: string, input: unknown, summary?: string): void {
    const id = `tool:${toolUseId}`
    const kind: MarkKind = EDIT_TOOLS.has(name) ? 'file' : COMMAND_TOOLS.has(name) ? 'command' : 'tool'
    const existing = this.currentMark(id)
    if (!existing) {
      this.add({ id, lane, kind, label: name || 'Tool', state: 'running', target: this.targetOf(lane, toolUseId), files: [] })
    }
    if (input === undefined && summary === undefined) return
    this.update(id, (mark) => {
      const files = kind === 'file' ? mergeFiles(mark.files, filesOf(input)) : mark.files
      const label = describeCall(name || mark.label, input, summary)
      return label === mark.label && files === mark.files && mark.kind === kind ? mark : { ...mark, kind, label, files }
    })
  }

  private startLane(event: Extract<AgentEvent, { type: 'agent_start' }>): void {
    const label = `${event.agentType}: ${oneLine(event.description)}`
    if (this.currentLaneIndex().has(event.agentId)) {
      this.updateLane(event.agentId, (found) => ({ ...found, state: 'running' }))
      return
    }
    const parentLane = event.parentAgentId === MAIN_LANE || !this.currentLaneIndex().has(event.parentAgentId) ? MAIN_LANE : event.parentAgentId
    const parent = this.currentLanes()[this.currentLaneIndex().get(parentLane)!]!
    const anchor = parentLane === MAIN_LANE ? event.parentToolUseId : parent.anchor
    const lanes = this.writableLanes()
    this.laneIndex!.set(event.agentId, lanes.length)
    lanes.push({ id: event.agentId, label, parent: parentLane, ...(anchor !== undefined && { anchor }), state: 'running' })
  }

  /** Where a click on a mark of `lane` leads: the main agent's own card, or the Agent call the lane hangs under. */
  private targetOf(lane: string, toolUseId: string | undefined): Mark['target'] {
    if (lane === MAIN_LANE) return toolUseId ? { toolUseId } : this.lastTurnTarget()
    const anchor = this.currentLanes()[this.currentLaneIndex().get(lane) ?? -1]?.anchor
    return anchor ? { toolUseId: anchor } : this.lastTurnTarget()
  }

  private lastTurnTarget(): Mark['target'] {
    const marks = this.currentMarks()
    for (let i = marks.length - 1; i >= 0; i--) if (marks[i]!.kind === 'turn') return marks[i]!.target
    return {}
  }

  private settleLastTurn(state: Mark['state']): void {
    const marks = this.currentMarks()
    for (let i = marks.length - 1; i >= 0; i--) {
      const mark = marks[i]!
      if (mark.kind !== 'turn') continue
      if (mark.state === 'running') this.update(mark.id, (found) => ({ ...found, state }))
      return
    }
  }

  private add(mark: Omit<Mark, 'seq' | 'at'>): void {
    if (this.currentIndex().has(mark.id)) return
    const marks = this.writableMarks()
    this.index!.set(mark.id, marks.length)
    marks.push({ ...mark, seq: marks.length, at: this.folded - 1 })
  }

  private update(id: string, change: (mark: Mark) => Mark): void {
    const at = this.currentIndex().get(id)
    if (at === undefined) return
    const before = this.currentMarks()[at]!
    const after = change(before)
    if (after === before || sameMark(before, after)) return
    this.writableMarks()[at] = after
  }

  private updateLane(id: string, change: (lane: Lane) => Lane): void {
    const at = this.currentLaneIndex().get(id)
    if (at === undefined) return
    const before = this.currentLanes()[at]!
    const after = change(before)
    if (after.state === before.state && after.label === before.label) return
    this.writableLanes()[at] = after
  }

  private currentMark(id: string): Mark | undefined {
    const at = this.currentIndex().get(id)
    return at === undefined ? undefined : this.currentMarks()[at]
  }
  private currentMarks(): readonly Mark[] {
    return this.marks ?? this.base.marks
  }
  private currentIndex(): ReadonlyMap<string, number> {
    return this.index ?? this.base.index
  }
  private currentLanes(): readonly Lane[] {
    return this.lanes ?? this.base.lanes
  }
  private currentLaneIndex(): ReadonlyMap<string, number> {
    return this.laneIndex ?? this.base.laneIndex
  }
  private writableMarks(): Mark[] {
    if (!this.marks) {
      this.marks = this.base.marks.slice()
      this.index = new Map(this.base.index)
    }
    return this.marks
  }
  private writableLanes(): Lane[] {
    if (!this.lanes) {
      this.lanes = this.base.lanes.slice()
      this.laneIndex = new Map(this.base.laneIndex)
    }
    return this.lanes
  }
}

function sameMark(a: Mark, b: Mark): boolean {
  return a.label === b.label && a.state === b.state && a.kind === b.kind && a.files === b.files && a.note === b.note
}

/** A mark's accessible name: what it is and, unless it simply finished, how it stands. */
export function markName(mark: Mark): string {
  const how = mark.note ?? (mark.state === 'running' ? 'running' : mark.state === 'error' ? 'failed' : undefined)
  return how ? `${mark.label} — ${how}` : mark.label
}

/** "Files changed: a.ts, b.ts", or that the events name none. */
export function filesLine(mark: Mark): string {
  if (mark.files.length > 0) return `Files changed: ${mark.files.join(', ')}`
  return mark.kind === 'command' ? 'Files changed: not named by the command (see the checkpoints)' : 'No files changed'
}

/** "Bash: npm test", "Edit src/a.ts", "Grep export": the tool and its one telling field. */
function describeCall(name: string, input: unknown, summary: string | undefined): string {
  const record = (typeof input === 'object' && input !== null ? input : {}) as Record<string, unknown>
  // A command is named by itself, not by the description the model gave it.
  if (name === 'Bash' && typeof record['command'] === 'string') return `Bash: ${oneLine(record['command'])}`
  if (summary) return oneLine(summary.startsWith(`${name} `) || summary.startsWith(`${name}:`) ? summary : `${name} ${summary}`)
  for (const key of ['file_path', 'notebook_path', 'path', 'pattern', 'url', 'description']) {
    if (typeof record[key] === 'string') return `${name} ${oneLine(record[key])}`
  }
  return name
}

/** The files an edit tool's input names. */
function filesOf(input: unknown): string[] {
  const record = (typeof input === 'object' && input !== null ? input : {}) as Record<string, unknown>
  return ['file_path', 'notebook_path'].flatMap((key) => (typeof record[key] === 'string' ? [record[key]] : []))
}

function mergeFiles(known: string[], more: string[]): string[] {
  const fresh = more.filter((file) => !known.includes(file))
  return fresh.length ? [...known, ...fresh] : known
}

/** A hook's stdin names the call it is about (`tool_use_id`) for the tool events. */
function toolUseIdOf(input: string): string | undefined {
  const match = /"tool_use_id"\s*:\s*"([^"]+)"/.exec(input)
  return match?.[1]
}

function outcomeWord(outcome: ApprovalResolution): string {
  switch (outcome) {
    case 'allowed_once':
      return 'allowed once'
    case 'allowed_session':
      return 'allowed for the session'
    case 'allowed_always':
      return 'always allowed'
    case 'rejected':
      return 'rejected'
    case 'aborted':
      return 'cancelled'
    case 'headless':
      return 'refused (no one to ask)'
  }
}

function oneLine(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim()
  return line.length > LABEL_CHARS ? `${line.slice(0, LABEL_CHARS - 1)}…` : line
}
