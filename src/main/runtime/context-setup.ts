import type { PlanMode } from '../agents/plan-mode'
import { planProvider, recentFilesProvider, remindedProvider, skillsProvider, tasksProvider } from '../compaction/restoration'
import { compactionSettings, compactionWindow, contextWindowFromEnv } from '../compaction/settings'
import type { NestedInstructions } from '../context/nested-instructions'
import type { PermissionGate } from '../governance/gate/gate'
import type { FileStateCache } from '../tools/file-state'
import type { TaskListAccess } from '../tools/types'
import type { SessionContextSetup } from '../session/session-context'
import type { ExtensionParts } from './extension-parts'

/** What a session's compaction is set up from. */
export interface ContextSetupParts {
  env: Readonly<Record<string, string | undefined>>
  fileState: FileStateCache
  nested: NestedInstructions
  gate: PermissionGate
  tasks: TaskListAccess
  plan: PlanMode
  extensions: ExtensionParts
}

/**
 * The session's compaction: thresholds from the model's window (or `SOUS_CONTEXT_WINDOW`, or the
 * smaller `autoCompactWindow` setting), what a summary restores (the files the agent read most
 * recently, the session's plan, loaded skills, open tasks, and what came as reminders: subfolder
 * instructions and MCP servers' instructions), and the gate's PreCompact, PostCompact and
 * SessionStart (`compact`) hooks; and the system prompt's extra sections (the skill catalog).
 */
export function contextSetup(o: ContextSetupParts): SessionContextSetup {
  const { gate, extensions } = o
  const contextWindow = contextWindowFromEnv(o.env)
  return {
    // From the model the session uses now: `/model` may pick one with another window.
    settings: (model, promptCacheTtl) => compactionSettings({ model, ...(promptCacheTtl && { promptCacheTtl }), contextWindow: compactionWindow(model, contextWindow, gate.settingsNow().autoCompactWindow) }),
    restoration: [
      recentFilesProvider(o.fileState, (path) => gate.isReadDenied(path)),
      planProvider(() => o.plan.activePlanFile()),
      skillsProvider(),
      tasksProvider(o.tasks),
      // What reached the model as reminders: gone with the messages that carried them.
      remindedProvider('subfolder instructions', 'instructions', () => o.nested.loaded()),
      remindedProvider('MCP instructions', 'mcp', () => extensions.mcpInstructions()),
    ],
    hooks: {
      preCompact: (trigger, instructions) => gate.preCompact(trigger, instructions),
      postCompact: (trigger, summary) => gate.postCompact(trigger, summary),
      sessionStart: () => gate.sessionStart('compact'),
    },
    // The skill catalog, read once with the rest of the system prompt.
    sections: () => extensions.promptSections(),
  }
}
