import { z } from 'zod'
import { defineTool } from './define-tool'
import description from './task-create.prompt'
import { taskListOf } from './task-format'

const input = z.strictObject({
  subject: z.string().describe('A brief title for the task'),
  description: z.string().describe('A detailed description of what needs to be done'),
  activeForm: z.string().optional().describe('Present continuous form shown in the spinner while the task is in progress (e.g., "Running tests")'),
  metadata: z.record(z.string(), z.unknown()).optional().describe('Arbitrary metadata to attach to the task'),
})

/** TaskCreate: a new pending task in the session's task list. */
export const taskCreateTool = defineTool({
  name: 'TaskCreate',
  label: 'Create task',
  description,
  input,
  isDestructive: () => false,
  isConcurrencySafe: () => true,
  isBookkeeping: () => true,
  summarize: (args) => args.subject,
  async execute(args, ctx) {
    const list = taskListOf(ctx)
    if (!('store' in list)) return list
    const created = await list.store.create(args, list.ownerOf(ctx.agentId))
    if (!created.ok) return { content: created.error, isError: true }
    return { content: `Task #${created.task.id} created successfully: ${created.task.subject}`, details: { task: created.task } }
  },
})
