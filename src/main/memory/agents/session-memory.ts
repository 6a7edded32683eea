import { realpath } from 'node:fs/promises'
import { join } from 'node:path'
import type { AgentEvent, MemoryMention, Usage } from '../../../shared/protocol/agent-event'
import type { ReminderSink } from '../../context/reminders'
import type { EventBody } from '../../engine/types'
import { askOnce } from '../../services/model/ask'
import type { ModelService } from '../../services/model/types'
import type { MemoryRecord } from '../folder'
import { parsePicks, recallCandidates, recallQuestion, recallReminder, RECALL_SYSTEM, surfacedKey, type RecallCandidate } from '../recall'
import type { AgentWriteOutcome, MemoryService } from '../service'
import { runExtraction, type ConversationPrefix } from './extraction'
import { lastPromptIndex, userTexts } from './user-texts'

/**
 * Memory around one session's turns. Nothing here is on the critical path of a turn:
 * - the memory section of the system prompt is read once per session (the indexes as they are on
 *   disk: two small files), so memories written later never change the cached prefix;
 * - recall starts when the user submits and runs beside the turn; its picks go into the session's
 *   reminder queue and ride with the first request that starts after they arrive (the turn records
 *   them in a `memory_recall` event, or says they came too late);
 * - extraction starts after a turn completes and runs in the background; a turn that ends while
 *   one runs is taken up when it finishes. Its cost is added to the session's usage.
 */

/** What the session gives its memory. */
export interface SessionMemoryHost {
  sessionId: string
  projectPath: string
  /** Emits an event of the session (hub and transcript). */
  emit(event: AgentEvent): void
  /** The session's reminder queue. */
  reminders: ReminderSink
  /** Adds a side request's usage to the session's and announces the new totals. */
  account(usage: Usage, costUsd: number, model: string): void
}

export interface SessionMemoryOptions {
  service: MemoryService
  /** The model service (the session's). */
  model(): Promise<ModelService>
  /** The recall model's name. */
  recallModel(): string
  /** Run extraction after turns (off for `sous -p`, which reads memory but leaves writing it to interactive sessions). */
  extract?: boolean
  /** Lets the agent read these folders without asking (the session's permission grants). */
  allowRead?(folders: readonly string[]): void
  now?(): Date
}

/** What a session calls: before a turn (prompt section, recall), after it (extraction). */
export interface SessionMemoryPort {
  promptSection(): Promise<string>
  startRecall(turnId: string, prompt: string): void
  turnEnded(turnId: string): void
  /**
   * After a compaction: the memories recalled in this session (newest last, at most
   * {@link RESTORE_MEMORIES}) as they are now, to come back with the summary. Those left out may
   * be recalled again (the "already shown" set keeps only the ones restored).
   */
  recalled(): Promise<Array<{ label: string; text: string }>>
  afterTurn(turnId: string, prefix: ConversationPrefix): void
  /** Resolves once no recall or extraction is running (tests, the headless CLI). */
  idle(): Promise<void>
  dispose(): Promise<void>
}

/** At most this many recalled memories come back after a compaction. */
export const RESTORE_MEMORIES = 10

export class SessionMemory implements SessionMemoryPort {
  private section: Promise<string> | undefined
  private liveTurn: string | undefined
  private readonly surfaced = new Set<string>()
  /** What recall attached in this session, by path (the newest last). */
  private readonly attached = new Map<string, RecallCandidate>()
  /** Recalls pushed but not yet sent, by turn. */
  private readonly undelivered = new Map<string, { memories: MemoryMention[]; model: string }>()
  private readonly tasks = new Set<Promise<void>>()
  private readonly controller = new AbortController()
  /** Messages already looked at by extraction. */
  private extractedUpTo: number | undefined
  private extracting: Promise<void> | undefined
  private waiting: { turnId: string; prefix: ConversationPrefix } | undefined
  private readonly written = new Map<string, { scope: string; file: string; path: string }>()

  constructor(
    private readonly host: SessionMemoryHost,
    private readonly options: SessionMemoryOptions,
  ) {}

  promptSection(): Promise<string> {
    this.section ??= this.readSection().catch((error: unknown) => {
      this.notice('warning', `Memory is not in this session's prompt: ${message(error)}`)
      return ''
    })
    return this.section
  }

  private async readSection(): Promise<string> {
    const { service } = this.options
    const { where } = await service.locate(this.host.projectPath)
    const folders = [where.user, where.project]
    const real = await Promise.all(folders.map((folder) => realpath(folder).catch(() => folder)))
    this.options.allowRead?.([...new Set([...folders, ...real])])
    return service.promptSection(this.host.projectPath)
  }

  startRecall(turnId: string, prompt: string): void {
    this.liveTurn = turnId
    if (!this.options.service.preferences().autoMemory) return
    this.track(this.recall(turnId, prompt))
  }

  turnEnded(turnId: string): void {
    if (this.liveTurn === turnId) this.liveTurn = undefined
    const late = this.undelivered.get(turnId)
    if (late) {
      this.undelivered.delete(turnId)
      this.host.emit(this.event({ type: 'memory_recall', turnId, memories: late.memories, attached: false, model: late.model }))
    }
  }

  async recalled(): Promise<Array<{ label: string; text: string }>> {
    const picks = [...this.attached.values()].slice(-RESTORE_MEMORIES)
    this.surfaced.clear()
    if (picks.length === 0) return []
    const { user, project } = await this.options.service.locate(this.host.projectPath)
    // As they are now: a memory edited since comes back edited, one deleted does not come back.
    const current = await Promise.all(picks.map(async (pick) => ({ ...pick, record: await readRecord(pick.scope === 'user' ? user : project, pick.record.file) })))
    const kept = current.filter((pick): pick is RecallCandidate => pick.record !== undefined && pick.record.problems.length === 0)
    for (const pick of kept) this.surfaced.add(surfacedKey(pick.record))
    return kept.length > 0 ? [{ label: kept.map((pick) => pick.id).join(', '), text: recallReminder(kept).replace('Memories recalled for this request', 'Memories recalled earlier in this session') }] : []
  }

  afterTurn(turnId: string, prefix: ConversationPrefix): void {
    if (this.options.extract === false || !this.options.service.preferences().autoMemory) return
    if (this.extracting) {
      this.waiting = { turnId, prefix } // the newest wins: it holds every message the older one had
      return
    }
    this.extracting = this.extract(turnId, prefix).finally(() => {
      this.extracting = undefined
      const next = this.waiting
      this.waiting = undefined
      if (next && !this.controller.signal.aborted) this.afterTurn(next.turnId, next.prefix)
    })
    this.track(this.extracting)
  }

  async idle(): Promise<void> {
    while (this.tasks.size > 0) await Promise.allSettled([...this.tasks])
  }

  async dispose(): Promise<void> {
    this.controller.abort()
    await this.idle()
  }

  private async recall(turnId: string, prompt: string): Promise<void> {
    const { user, project } = await this.options.service.locate(this.host.projectPath)
    const [userRecords, projectRecords] = await Promise.all([user.list(), project.list()])
    // Recall lists the folders anyway: an index another writer left stale is fixed on the way.
    this.track(Promise.all([user.syncIndex(userRecords), project.syncIndex(projectRecords)]).then(() => undefined))
    const candidates = recallCandidates([{ scope: 'user', records: userRecords }, { scope: 'project', records: projectRecords }], this.surfaced)
    if (candidates.length === 0) return
    const model = this.options.recallModel()
    const answer = await askOnce(await this.options.model(), { model, system: RECALL_SYSTEM, user: recallQuestion(prompt, candidates), maxTokens: 300, signal: this.controller.signal })
    this.host.account(answer.usage, answer.costUsd, answer.model)
    const picks = parsePicks(answer.text, candidates)
    if (picks.length === 0) return
    const memories = picks.map(mention)
    if (this.liveTurn !== turnId) {
      this.host.emit(this.event({ type: 'memory_recall', turnId, memories, attached: false, model }))
      return
    }
    this.undelivered.set(turnId, { memories, model })
    this.host.reminders.push(recallReminder(picks), { source: 'memory-recall', stillRelevant: () => this.delivered(turnId, picks, model) })
  }

  /** Called as the queue drains the recall into a request: sent only within its own turn. */
  private delivered(turnId: string, picks: readonly RecallCandidate[], model: string): boolean {
    if (this.liveTurn !== turnId || !this.undelivered.has(turnId)) return false
    this.undelivered.delete(turnId)
    for (const pick of picks) {
      this.surfaced.add(surfacedKey(pick.record))
      this.attached.delete(pick.record.path)
      this.attached.set(pick.record.path, pick)
    }
    this.host.emit(this.event({ type: 'memory_recall', turnId, memories: picks.map(mention), attached: true, model }))
    void this.options.service.recordRecall(this.host.projectPath, this.host.sessionId, picks.map((pick) => pick.record.path))
    return true
  }

  private async extract(turnId: string, prefix: ConversationPrefix): Promise<void> {
    const from = this.extractedUpTo ?? lastPromptIndex(prefix.messages)
    const userMessages = userTexts(prefix.messages.slice(from))
    this.extractedUpTo = prefix.messages.length
    if (userMessages.length === 0) return
    const { service } = this.options
    const { user, project } = await service.locate(this.host.projectPath)
    const written = await Promise.all([...this.written.values()].map(async (entry) => ({ ...entry, text: (await readRecord(entry.scope === 'user' ? user : project, entry.file))?.fields.body ?? '(since deleted)' })))
    const today = this.options.now?.() ?? new Date()
    const result = await runExtraction(
      prefix,
      {
        userMessages,
        written,
        today: isoDay(today),
        folders: [
          { scope: 'user', dir: user.dir },
          { scope: 'project', dir: project.dir },
        ],
      },
      this.controller.signal,
    )
    if (result.usage.inputTokens + result.usage.outputTokens > 0) this.host.account(result.usage, result.costUsd, result.model)
    if (this.controller.signal.aborted) return
    if (result.problem) this.notice('warning', `Memory extraction found nothing to save: ${result.problem}`)
    const saved: string[] = []
    const proposed: string[] = []
    for (const write of result.writes) {
      const outcome = await service.agentWrite(this.host.projectPath, this.host.sessionId, write, today)
      const line = this.report(turnId, outcome, write.type)
      if (line) (outcome.kind === 'proposed' ? proposed : saved).push(line)
    }
    const news = [
      ...(saved.length > 0 ? [`After your last turn Sous saved these memories (the index in your system prompt does not list them yet):\n${saved.join('\n')}`] : []),
      ...(proposed.length > 0 ? [`These memories wait for the user's approval in the memory browser (/memory); they are not saved yet:\n${proposed.join('\n')}`] : []),
    ]
    if (news.length > 0) this.host.reminders.push(news.join('\n\n'), { source: 'memory-extraction' })
  }

  /** Emits the outcome of one write; returns the reminder line for a memory that was written or proposed. */
  private report(turnId: string, outcome: AgentWriteOutcome, memoryType: string): string | undefined {
    if (outcome.kind === 'refused') {
      this.notice('warning', `A memory was not saved: ${outcome.reason}`)
      return undefined
    }
    if (outcome.kind === 'unchanged') return undefined
    if (outcome.kind === 'proposed') {
      const { proposal } = outcome
      const memory = { scope: proposal.scope, file: proposal.file, name: proposal.name, path: proposal.file }
      this.host.emit(this.event({ type: 'memory_write', turnId, memory, memoryType, change: 'proposed' }))
      return `- ${proposal.name} (${memoryType}, ${proposal.scope}, ${proposal.action === 'create' ? 'new' : `changes ${proposal.file}`})`
    }
    const { change } = outcome
    const path = join(change.dir, change.file)
    this.written.set(path, { scope: change.scope, file: change.file, path })
    const memory = { scope: change.scope, file: change.file, name: change.name ?? change.file, path }
    const kind = change.change === 'created' ? 'created' : 'updated'
    this.host.emit(this.event({ type: 'memory_write', turnId, memory, memoryType, change: kind, ...(change.changeId !== undefined && { changeId: change.changeId }) }))
    return `- ${memory.name} (${memoryType}, ${change.scope}): ${path}`
  }

  private track(task: Promise<void>): void {
    const tracked = task.catch((error: unknown) => {
      if (!this.controller.signal.aborted) this.notice('warning', `Memory: ${message(error)}`)
    })
    this.tasks.add(tracked)
    void tracked.finally(() => this.tasks.delete(tracked))
  }

  private notice(level: 'info' | 'warning', text: string): void {
    this.host.emit(this.event({ type: 'notice', level, message: text }))
  }

  private event(body: EventBody): AgentEvent {
    return { ...body, sessionId: this.host.sessionId, agentId: 'memory' } as AgentEvent
  }
}

function mention(candidate: RecallCandidate): MemoryMention {
  return { scope: candidate.scope, file: candidate.record.file, name: candidate.record.fields.name, path: candidate.record.path }
}

async function readRecord(folder: { read(file: string): Promise<MemoryRecord | undefined> }, file: string): Promise<MemoryRecord | undefined> {
  return folder.read(file).catch(() => undefined)
}

function isoDay(date: Date): string {
  const pad = (value: number) => String(value).padStart(2, '0')
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}
