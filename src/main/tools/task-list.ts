import { z } from 'zod'
import { defineTool } from './define-tool'
import description from './task-list.prompt'
import { problemLines, taskLine, taskListOf } from './task-format'

const input = z.strictObject({})

/** TaskList: every task in one compact line (id, status, subject, owner, open blockers). */
export const taskListTool = defineTool({
  name: 'TaskList',
  label: 'List tasks',
  description,
  input,
  isReadOnly: () => true,
  isDestructive: () => false,
  isConcurrencySafe: () => true,
  summarize: () => 'Tasks',
  async execute(_args, ctx) {
    const list = taskListOf(ctx)
    if (!('store' in list)) return list
    const { tasks, problems } = await list.store.list()
    const byId = new Map(tasks.map((task) => [task.id, task]))
    const body = tasks.length === 0 ? 'No tasks found.' : tasks.map((task) => taskLine(task, byId)).join('\n')
    return { content: body + problemLines(problems), details: { listId: list.listId, count: tasks.length, problems } }
  },
})
