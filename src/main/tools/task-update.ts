import { z } from 'zod'
import { defineTool } from './define-tool'
import { verificationNudge } from './verification-nudge'
import description from './task-update.prompt'
import { taskListOf, taskRefs } from './task-format'

const input = z.strictObject({
  taskId: z.string().describe('The ID of the task to update'),
  subject: z.string().optional().describe('New subject for the task'),
  description: z.string().optional().describe('New description for the task'),
  activeForm: z.string().optional().describe('Present continuous form shown in the spinner while the task is in progress (e.g., "Running tests")'),
  status: z
    .union([z.enum(['pending', 'in_progress', 'completed']), z.literal('deleted')])
    .optional()
    .describe('New status for the task ("deleted" removes it)'),
  addBlocks: z.array(z.string()).optional().describe('Task IDs that cannot start until this task is completed'),
  addBlockedBy: z.array(z.string()).optional().describe('Task IDs that must be completed before this task can start'),
  owner: z.string().optional().describe('New owner for the task (an empty string clears it)'),
  metadata: z.record(z.string(), z.unknown()).optional().describe('Metadata keys to merge into the task. Set a key to null to remove it.'),
})

/** TaskUpdate: changes, claims, completes or deletes a task, under the list's lock. */
export const taskUpdateTool = defineTool({
  name: 'TaskUpdate',
  label: 'Update task',
  description,
  input,
  isDestructive: () => false,
  isConcurrencySafe: () => true,
  isBookkeeping: () => true,
  summarize: (args) => `#${args.taskId.replace(/^#/, '')}${args.status ? ` → ${args.status}` : ''}`,
  async execute(args, ctx) {
    const list = taskListOf(ctx)
    if (!('store' in list)) return list
    const { taskId, ...patch } = args
    const updated = await list.store.update(taskId, patch, list.ownerOf(ctx.agentId))
    if (!updated.ok) return { content: updated.error, isError: true }
    const id = taskId.replace(/^\s*#/, '').trim()
    let text = updated.deleted
      ? `Task #${id} deleted.`
      : updated.updatedFields.length > 0
        ? `Updated task #${updated.task!.id} ${updated.updatedFields.join(', ')}.`
        : `Task #${updated.task!.id} already had those values.`
    if (updated.unblocked.length > 0) text += `\nNow unblocked: ${taskRefs(updated.unblocked)}.`
    const nudge = verificationNudge((await list.store.list()).tasks, args.status === 'completed' && updated.updatedFields.includes('status'))
    if (nudge) text += `\n\n${nudge}`
    return { content: text, details: { task: updated.task, deleted: updated.deleted, unblocked: updated.unblocked.map((task) => task.id) } }
  },
})
