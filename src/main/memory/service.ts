import { randomUUID } from 'node:crypto'
import { homedir } from 'node:os'
import { join } from 'node:path'
import type { MemoryChange, MemoryDocument, MemoryFolderInfo, MemoryProposal } from '../../shared/ipc/memory'
import { AppError } from '../../shared/ipc/result'
import { INDEX_MAX_BYTES, INDEX_MAX_LINES, memoryFileName, type MemoryFields, type MemoryScope } from '../../shared/memory'
import type { EventHub } from '../base/event-hub'
import { ActivityLog, type ActivityEntry } from './activity'
import { ChangeLog, type ChangeStep } from './changes'
import { indexEntry, MemoryFolder, type MemoryRecord } from './folder'
import { renderIndex } from './index-file'
import { memoryFolders, type MemoryFolders, type MemoryPlace } from './locations'
import { memoryPromptSection } from './prompt'
import { planAgentWrite, type AgentWrite } from './agent-write'

/**
 * The memory of every project, for the memory browser and for the agent: both folders of a project,
 * writes that can be undone, writes the agent proposes while they wait for approval, the activity
 * log, and the memory part of the system prompt. One instance per host; every change goes out as a
 * `memory.changed` event so open browsers update live.
 */

/** Sous's preferences that shape memory (read each time they matter). */
export interface MemoryPreferences {
  autoMemory?: boolean
  memoryLocation?: MemoryPlace
  memoryWrites?: 'undoable' | 'approve'
  recallModel?: string
}

export interface MemoryServiceOptions {
  /** `$SOUS_HOME`. */
  sousHome: string
  hub?: EventHub
  env?: NodeJS.ProcessEnv
  /** The user's home (tests point it at a temp folder). */
  home?: string
  preferences?: () => MemoryPreferences
}

/** What an agent write came to. */
export type AgentWriteOutcome =
  | { kind: 'written'; change: MemoryChange }
  | { kind: 'proposed'; proposal: MemoryProposal }
  | { kind: 'unchanged'; file: string }
  | { kind: 'refused'; reason: string }

interface PendingProposal {
  proposal: MemoryProposal
  folder: MemoryFolder
  /** The version the update was planned against (`null`: a new file). */
  base: string | null
  projectPath: string
}

export class MemoryService {
  private readonly byDir = new Map<string, MemoryFolder>()
  private readonly changes = new ChangeLog()
  private readonly proposals = new Map<string, PendingProposal>()
  readonly activity: ActivityLog

  constructor(private readonly options: MemoryServiceOptions) {
    this.activity = new ActivityLog(join(options.sousHome, 'memory-activity.jsonl'))
  }

  /** The preferences now (defaults filled in). */
  preferences(): Required<Pick<MemoryPreferences, 'autoMemory' | 'memoryWrites'>> & MemoryPreferences {
    const read = this.options.preferences?.() ?? {}
    return { ...read, autoMemory: read.autoMemory ?? true, memoryWrites: read.memoryWrites ?? 'undoable' }
  }

  /** Where a project's two folders are, and their store objects (one per folder for the process). */
  async locate(projectPath: string): Promise<{ where: MemoryFolders; user: MemoryFolder; project: MemoryFolder }> {
    const where = await memoryFolders({
      projectPath,
      sousHome: this.options.sousHome,
      place: this.preferences().memoryLocation ?? 'claude',
      env: this.options.env ?? process.env,
      home: this.options.home ?? homedir(),
    })
    return { where, user: this.folder(where.user), project: this.folder(where.project) }
  }

  /** Both folders with every memory, and the proposals waiting for approval. */
  async list(projectPath: string): Promise<{ folders: MemoryFolderInfo[]; memories: MemoryDocument[]; proposals: MemoryProposal[] }> {
    const { where, user, project } = await this.locate(projectPath)
    const scopes = [
      { scope: 'user' as const, folder: user, source: 'sous' as const },
      { scope: 'project' as const, folder: project, source: where.projectSource },
    ]
    const listed = await Promise.all(
      scopes.map(async ({ scope, folder, source }) => {
        let records = await folder.list()
        // Listing is also when an index another writer left out of date gets regenerated.
        if (await folder.syncIndex(records)) records = await folder.list()
        const index = renderIndex(records.map(indexEntry))
        const info: MemoryFolderInfo = { scope, dir: folder.dir, source, index: { ...index, maxLines: INDEX_MAX_LINES, maxBytes: INDEX_MAX_BYTES } }
        return { info, memories: records.map((record) => documentOf(scope, record)) }
      }),
    )
    const dirs = new Set(scopes.map(({ folder }) => folder.dir))
    const proposals = [...this.proposals.values()].filter((pending) => dirs.has(pending.folder.dir)).map((pending) => pending.proposal)
    return { folders: listed.map((entry) => entry.info), memories: listed.flatMap((entry) => entry.memories), proposals }
  }

  /** The memory section of the system prompt for a new session of the project (empty when memory is off). */
  async promptSection(projectPath: string): Promise<string> {
    return this.preferences().autoMemory ? this.renderPromptSection(projectPath) : ''
  }

  /** The memory section as it reads when memory is on (the browser shows it either way). */
  async renderPromptSection(projectPath: string): Promise<string> {
    const { user, project } = await this.locate(projectPath)
    const [userIndex, projectIndex] = await Promise.all([user.indexText(), project.indexText()])
    return memoryPromptSection([
      { scope: 'user', dir: user.dir, index: userIndex },
      { scope: 'project', dir: project.dir, index: projectIndex },
    ])
  }

  /** Creates (no `file`) or replaces a memory from the browser. */
  async save(projectPath: string, scope: MemoryScope, file: string | undefined, version: string | undefined, fields: MemoryFields): Promise<{ memory: MemoryDocument; changeId: string }> {
    const folder = await this.scopeFolder(projectPath, scope)
    const target = file ?? (await freeFileName(folder, memoryFileName(fields.type, fields.name)))
    if (file !== undefined && version === undefined) throw new AppError('INVALID_INPUT', 'Saving an existing memory needs the version that was opened.')
    const outcome = await folder.write(target, fields, file === undefined ? null : version!)
    const changeId = this.changes.record({ folder, scope, name: fields.name, steps: [{ file: target, before: outcome.previous, after: outcome.record.version }] })
    this.emit({ scope, dir: folder.dir, file: target, change: outcome.previous === undefined ? 'created' : 'updated', by: 'user', name: fields.name, changeId })
    return { memory: documentOf(scope, outcome.record), changeId }
  }

  /** Renames a memory: its `name`, and its file to match. */
  async rename(projectPath: string, scope: MemoryScope, file: string, version: string, name: string): Promise<{ memory: MemoryDocument; changeId: string }> {
    const folder = await this.scopeFolder(projectPath, scope)
    const current = await folder.read(file)
    if (!current) throw new AppError('NOT_FOUND', `No memory file ${file}.`)
    const fields = { ...current.fields, name }
    const wanted = memoryFileName(fields.type, name)
    const target = wanted === file ? file : await freeFileName(folder, wanted)
    const outcome = target === file ? await folder.write(file, fields, version) : await folder.rename(file, target, fields, version)
    const steps: ChangeStep[] =
      target === file
        ? [{ file, before: outcome.previous, after: outcome.record.version }]
        : [
            { file: target, before: undefined, after: outcome.record.version },
            { file, before: outcome.previous, after: null },
          ]
    const changeId = this.changes.record({ folder, scope, name, steps })
    this.emit({ scope, dir: folder.dir, file: target, change: 'renamed', by: 'user', name, from: file, changeId })
    return { memory: documentOf(scope, outcome.record), changeId }
  }

  /** Deletes a memory the user last saw at `version`. */
  async delete(projectPath: string, scope: MemoryScope, file: string, version: string): Promise<{ changeId: string }> {
    const folder = await this.scopeFolder(projectPath, scope)
    const text = await folder.remove(file, version)
    const changeId = this.changes.record({ folder, scope, name: file, steps: [{ file, before: text, after: null }] })
    this.emit({ scope, dir: folder.dir, file, change: 'deleted', by: 'user', changeId })
    return { changeId }
  }

  /** Takes a change back, if every file it touched is still as it left it. */
  async undo(changeId: string): Promise<void> {
    const change = this.changes.get(changeId)
    if (!change) throw new AppError('NOT_FOUND', 'That change can no longer be undone.')
    for (const step of change.steps) {
      const now = await change.folder.read(step.file)
      const version = now ? now.version : null
      if (version !== step.after) throw new AppError('CONFLICT', `${step.file} changed since; undoing would lose that edit.`)
    }
    for (const step of [...change.steps].reverse()) await change.folder.restore(step.file, step.before, step.after)
    this.changes.forget(changeId)
    this.emit({ scope: change.scope, dir: change.folder.dir, file: change.steps[0]!.file, change: 'undone', by: 'user', name: change.name })
  }

  /**
   * A write the extraction agent asked for: deduplicated against the folder (same name or file →
   * an update; nothing new → unchanged), relative dates made absolute in project memories, then
   * written as an undoable change or held for approval, as the preferences say — except that a
   * user-scope memory (new or edited) is always held for approval: it enters the system prompt of
   * every project, and the model's answer alone chose that scope, so one turn in an untrusted
   * repository must not be able to put text into all the others.
   */
  async agentWrite(projectPath: string, sessionId: string, write: AgentWrite, today: Date): Promise<AgentWriteOutcome> {
    const folder = await this.scopeFolder(projectPath, write.scope)
    const plan = planAgentWrite(await folder.list(), write, today)
    if (plan.kind !== 'write') return plan.kind === 'unchanged' ? { kind: 'unchanged', file: plan.file } : { kind: 'refused', reason: plan.reason }
    const { file, fields, base, previousBody } = plan
    if (write.scope === 'user' || this.preferences().memoryWrites === 'approve') {
      const proposal: MemoryProposal = {
        id: randomUUID(),
        scope: write.scope,
        file,
        action: base === null ? 'create' : 'update',
        ...fields,
        ...(previousBody !== undefined && { previousBody }),
        sessionId,
        at: Date.now(),
      }
      this.proposals.set(proposal.id, { proposal, folder, base, projectPath })
      this.emit({ scope: write.scope, dir: folder.dir, file, change: 'proposed', by: 'agent', name: fields.name, sessionId })
      return { kind: 'proposed', proposal }
    }
    try {
      return { kind: 'written', change: await this.writeForAgent(folder, write.scope, file, fields, base, sessionId, projectPath) }
    } catch (error) {
      return { kind: 'refused', reason: error instanceof Error ? error.message : String(error) }
    }
  }

  /** Applies (as an undoable change) or drops a proposal. */
  async decide(proposalId: string, accept: boolean): Promise<void> {
    const pending = this.proposals.get(proposalId)
    if (!pending) throw new AppError('NOT_FOUND', 'That proposal was already decided.')
    const { proposal, folder, base, projectPath } = pending
    if (accept) {
      const fields = { name: proposal.name, description: proposal.description, type: proposal.type, body: proposal.body }
      await this.writeForAgent(folder, proposal.scope, proposal.file, fields, base, proposal.sessionId, projectPath)
    } else {
      this.emit({ scope: proposal.scope, dir: folder.dir, file: proposal.file, change: 'rejected', by: 'user', name: proposal.name, sessionId: proposal.sessionId })
    }
    this.proposals.delete(proposalId)
  }

  /** Notes in the activity log that a session recalled these memory files. */
  recordRecall(projectPath: string, sessionId: string, paths: readonly string[]): Promise<void> {
    const at = Date.now()
    return this.activity.append(paths.map((path) => ({ at, sessionId, projectPath, path, action: 'recalled' as const })))
  }

  /** Sessions that recalled or wrote a memory, newest first. */
  async activityOf(projectPath: string, scope: MemoryScope, file: string): Promise<ActivityEntry[]> {
    const folder = await this.scopeFolder(projectPath, scope)
    return this.activity.about(join(folder.dir, file))
  }

  private async writeForAgent(folder: MemoryFolder, scope: MemoryScope, file: string, fields: MemoryFields, base: string | null, sessionId: string, projectPath: string): Promise<MemoryChange> {
    const outcome = await folder.write(file, fields, base)
    const changeId = this.changes.record({ folder, scope, name: fields.name, steps: [{ file, before: outcome.previous, after: outcome.record.version }] })
    const action = outcome.previous === undefined ? 'created' : 'updated'
    await this.activity.append([{ at: Date.now(), sessionId, projectPath, path: outcome.record.path, action }])
    const change: MemoryChange = { scope, dir: folder.dir, file, change: action, by: 'agent', name: fields.name, changeId, sessionId }
    this.emit(change)
    return change
  }

  private async scopeFolder(projectPath: string, scope: MemoryScope): Promise<MemoryFolder> {
    const located = await this.locate(projectPath)
    return scope === 'user' ? located.user : located.project
  }

  private folder(dir: string): MemoryFolder {
    let folder = this.byDir.get(dir)
    if (!folder) {
      folder = new MemoryFolder(dir)
      this.byDir.set(dir, folder)
    }
    return folder
  }

  private emit(change: MemoryChange): void {
    this.options.hub?.emit('memory.changed', change)
  }
}

/** The document the browser gets for a record. */
export function documentOf(scope: MemoryScope, record: MemoryRecord): MemoryDocument {
  return {
    scope,
    file: record.file,
    path: record.path,
    name: record.fields.name,
    description: record.fields.description,
    type: record.fields.type,
    body: record.fields.body,
    problems: record.problems,
    ...(record.duplicateOf !== undefined && { duplicateOf: record.duplicateOf }),
    updatedAt: record.updatedAt,
    version: record.version,
  }
}

/** `wanted`, or `wanted` with `_2`, `_3`… when a file of that name exists. */
async function freeFileName(folder: MemoryFolder, wanted: string): Promise<string> {
  const taken = new Set((await folder.list()).map((record) => record.file))
  if (!taken.has(wanted)) return wanted
  const stem = wanted.replace(/\.md$/, '')
  for (let count = 2; ; count++) if (!taken.has(`${stem}_${count}.md`)) return `${stem}_${count}.md`
}

