import type { CompactionRecord } from '../../shared/protocol/compaction'
import { ContextManager } from '../compaction/manager'
import { planProvider, recentFilesProvider, remindedProvider, skillsProvider, tasksProvider, type RestorationProvider } from '../compaction/restoration'
import { compactionSettings, compactionWindow } from '../compaction/settings'
import type { PermissionGate } from '../governance/gate/gate'
import type { Message } from '../services/model/types'
import type { FileStateCache } from '../tools/file-state'
import type { TaskListAccess } from '../tools/types'

/** What a session gives its subagents' compaction (see {@link subagentContext}). */
export interface SubagentCompaction {
  /** The window every model is taken to have (`SOUS_CONTEXT_WINDOW`); undefined: each model's own. */
  contextWindow: number | undefined
  /** The `autoCompactWindow` setting, when the settings give one (see compactionWindow). */
  autoCompactWindow?(): number | undefined
  /** The session's task list: its open tasks come back after a summary. */
  tasks?: TaskListAccess
  /** The session's plan file: it comes back for a fork, whose conversation is the main agent's. */
  planFile?(): string | undefined
}

/** The agent whose conversation is compacted, and where its current run keeps things. */
export interface SubagentContextTarget {
  model: string
  fork: boolean
  fileState: FileStateCache
  /** The sidechain's path: the summary names it, so the agent knows where its full history is. */
  transcriptPath: string
  /** The current run's gate (its hooks carry `agent_id` and `agent_type`); undefined between runs. */
  gate(): PermissionGate | undefined
  /** Persist a conversation that replaced the agent's (a boundary in its sidechain). */
  onReplace(messages: Message[], record: CompactionRecord): void
  /** The subfolder CLAUDE.md files it loaded (they come back after a summary). */
  nested?(): Array<{ label: string; text: string }>
}

/**
 * A subagent's context management: the same layers as the main agent's (result budget, snip,
 * micro-compact, collapse, auto-compact, reactive compaction, the circuit breaker), with what a
 * summary restores that applies to a subagent — the files it read itself, the skills loaded in
 * its conversation, the session's open tasks, the subfolder CLAUDE.md files it loaded, and for a
 * fork the session's plan. PreCompact and
 * PostCompact fire through the agent's own gate, as Claude Code fires hooks in subagents (their
 * input names the agent). SessionStart (`compact`) does not: it is the session's event.
 */
export function subagentContext(compaction: SubagentCompaction, target: SubagentContextTarget): ContextManager {
  const restoration: RestorationProvider[] = [recentFilesProvider(target.fileState, (path) => target.gate()?.isReadDenied(path) ?? true), skillsProvider()]
  if (compaction.tasks) restoration.push(tasksProvider(compaction.tasks))
  if (target.fork && compaction.planFile) restoration.push(planProvider(compaction.planFile))
  if (target.nested) restoration.push(remindedProvider('subfolder instructions', 'instructions', target.nested))
  return new ContextManager({
    settings: compactionSettings({ model: target.model, contextWindow: compactionWindow(target.model, compaction.contextWindow, compaction.autoCompactWindow?.()) }),
    restoration,
    hooks: {
      preCompact: async (trigger, instructions) => (await target.gate()?.preCompact(trigger, instructions)) ?? {},
      postCompact: async (trigger, summary) => {
        await target.gate()?.postCompact(trigger, summary)
      },
    },
    transcriptPath: target.transcriptPath,
    onReplace: (messages, record) => target.onReplace(messages, record),
  })
}
