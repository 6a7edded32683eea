import type { AgentEvent } from '../../../../shared/protocol/agent-event'
import { layerName } from '../../../../shared/protocol/compaction'
import { describeCall, filesOf, mergeFiles, oneLine, outcomeWord, toolUseIdOf } from './describe'
import { MAIN_LANE, type Lane, type Mark, type MarkKind, type Timeline, type TimelineInput } from './types'

export { filesLine, markName } from './describe'
export * from './types'

/**
 * The session timeline as data: every turn, tool call, file change, terminal command, hook firing,
 * compaction and approval as a mark on one shared axis, the main agent on the first lane and each
 * subagent on a lane of its own. A pure fold ({@link foldTimeline}) over what the renderer already
 * hears — the agent's events, the hook runs and the approvals — so a live session and a stored one
 * (its transcripts read back) give the same marks. Marks that did not change keep their identity,
 * so a view that memoizes them re-renders only what moved.
 */

/** What a hook mark is made of: a live run (`hooks.ran`) or a stored one (a `hook_run` event). */
interface HookStep {
  event: string
  matcher?: string
  command: string
  exitCode: number | null
  timedOut: boolean
  error?: string
  /** The call a tool event's hook was about. */
  toolUseId?: string
}

/** Tools that change files and name them in their input. */
const EDIT_TOOLS = new Set(['Edit', 'MultiEdit', 'Write', 'NotebookEdit'])
const COMMAND_TOOLS = new Set(['Bash', 'BashOutput'])

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
      case 'hook': {
        const { run } = input
        if (run.sessionId !== undefined && run.sessionId !== this.base.sessionId) return
        const toolUseId = toolUseIdOf(run.input)
        return this.hook({ ...run, ...(toolUseId !== undefined && { toolUseId }) })
      }
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
      // A stored session's hooks and approvals (its transcript records them; live they come as their own inputs).
      case 'hook_run':
        this.hook({ ...event, ...(event.aboutToolUseId !== undefined && { toolUseId: event.aboutToolUseId }) })
        return
      case 'approval_answered': {
        const owner = this.currentLaneIndex().has(event.agentId) ? event.agentId : MAIN_LANE
        const id = `approval:${event.approvalId}`
        this.add({ id, lane: owner, kind: 'approval', label: `Approval for ${event.toolName}`, state: 'running', target: this.targetOf(owner, event.toolUseId || undefined), files: [] })
        this.update(id, (mark) => ({ ...mark, note: outcomeWord(event.outcome), state: event.outcome === 'rejected' ? 'error' : 'done' }))
        return
      }
      default:
        return
    }
  }

  private hook(run: HookStep): void {
    const { toolUseId } = run
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
