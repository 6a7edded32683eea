import type { AgentEvent, Usage } from '../../shared/protocol/agent-event'
import type { CompactionRecord } from '../../shared/protocol/compaction'
import type { TaskItem } from '../../shared/protocol/task'
import { zeroUsage } from '../engine/usage'
import { taskListDir, TaskStore } from '../store/tasks/task-store'

// What a stored transcript says about its session, for resuming it (totals, compactions) and for
// showing it while it is closed (its task list).

/** A stored session's own task list (a list shared by name is not known once the session is closed). */
export async function storedTasks(dataDir: string, sessionId: string): Promise<{ listId: string; tasks: TaskItem[] } | undefined> {
  const listing = await new TaskStore(taskListDir(dataDir, sessionId)).list().catch(() => undefined)
  return listing && listing.tasks.length > 0 ? { listId: sessionId, tasks: listing.tasks } : undefined
}

/** The session's usage and cost so far: the totals of its last `usage` event. */
export function lastTotals(events: AgentEvent[]): { usage: Usage; costUsd: number } {
  for (let index = events.length - 1; index >= 0; index--) {
    const event = events[index]!
    if (event.type === 'usage') return { usage: event.total, costUsd: event.costUsd }
  }
  return { usage: zeroUsage(), costUsd: 0 }
}

/** The compactions a transcript recorded (their `compaction` events), oldest first. */
export function compactionsOf(events: AgentEvent[]): CompactionRecord[] {
  return events.flatMap((event) => {
    if (event.type !== 'compaction') return []
    const { type: _type, sessionId: _session, agentId: _agent, parentToolUseId: _parent, ...record } = event
    return [record]
  })
}
