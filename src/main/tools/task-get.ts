import { z } from 'zod'
import { defineTool } from './define-tool'
import description from './task-get.prompt'
import { taskListOf } from './task-format'

const input = z.strictObject({
  taskId: z.string().describe('The ID of the task to retrieve'),
})

/** TaskGet: one task with its full description and dependencies. */
export const taskGetTool = defineTool({
  name: 'TaskGet',
  label: 'Read task',
  description,
  input,
  isReadOnly: () => true,
  isDestructive: () => false,
  isConcurrencySafe: () => true,
  summarize: (args) => `#${args.taskId.replace(/^#/, '')}`,
  async execute(args, ctx) {
    const list = taskListOf(ctx)
    if (!('store' in list)) return list
    const got = await list.store.get(args.taskId)
    if (!got.ok) return { content: got.error, isError: true }
    const { task } = got
    const byId = new Map(got.all.map((t) => [t.id, t]))
    const ref = (id: string): string => {
      const other = byId.get(id)
      return other ? `#${id} ${other.subject} [${other.status}]` : `#${id} (unreadable)`
    }
    const lines = [`Task #${task.id}: ${task.subject}`, `Status: ${task.status}`]
    if (task.owner) lines.push(`Owner: ${task.owner}`)
    if (task.activeForm) lines.push(`Active form: ${task.activeForm}`)
    lines.push(`Description: ${task.description}`)
    if (task.blockedBy.length > 0) lines.push(`Blocked by: ${task.blockedBy.map(ref).join(', ')}`)
    if (task.blocks.length > 0) lines.push(`Blocks: ${task.blocks.map(ref).join(', ')}`)
    if (task.metadata) lines.push(`Metadata: ${JSON.stringify(task.metadata)}`)
    return { content: lines.join('\n'), details: { task } }
  },
})
