import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterEach, beforeEach, expect, it } from 'vitest'
import { taskListDir, TaskStore } from '../store/tasks/task-store'
import { runToolCall } from './run-tool'
import { taskCreateTool } from './task-create'
import { taskGetTool } from './task-get'
import { taskListTool } from './task-list'
import { taskUpdateTool } from './task-update'
import { makeTestWorld } from '../../../test/support/tools'
import type { TaskListAccess } from './types'

let world: ReturnType<typeof makeTestWorld>
let tasks: TaskListAccess

beforeEach(() => {
  world = makeTestWorld('sous-task-tools-')
  const store = new TaskStore(taskListDir(world.projectDataDir, 's1'))
  tasks = { store, listId: 's1', ownerOf: (agentId) => agentId }
})
afterEach(() => world.cleanup())

const text = (result: { content: unknown }): string => String(result.content)

it('lists tasks compactly and says which files it could not read', async () => {
  const ctx = world.ctx({ tasks })
  await runToolCall(taskCreateTool, { subject: 'One', description: 'first' }, ctx)
  await runToolCall(taskCreateTool, { subject: 'Two', description: 'second' }, ctx)
  await runToolCall(taskUpdateTool, { taskId: '2', addBlockedBy: ['1'], owner: 'helper' }, ctx)
  await writeFile(join(tasks.store.dir, '3.json'), '{"id": "3"')
  // A file written by hand is seen by the next store to open the list.
  const listed = await runToolCall(taskListTool, {}, world.ctx({ tasks: { ...tasks, store: new TaskStore(tasks.store.dir) } }))
  expect(text(listed)).toMatch(/^#1 \[pending\] One\n#2 \[pending\] Two \(owner: helper\) \[blocked by #1\]\n\nOne task file could not be read:\n- \S+\/3\.json: not JSON \(.+\)$/)
  expect(listed.isError).toBeUndefined()
})

it('claims in the name of the calling agent', async () => {
  await runToolCall(taskCreateTool, { subject: 'One', description: 'first' }, world.ctx({ tasks }))
  const claimed = await runToolCall(taskUpdateTool, { taskId: '1', status: 'in_progress' }, world.ctx({ tasks, agentId: 'agent-7' }))
  expect(text(claimed)).toBe('Updated task #1 owner, status.')
  expect(text(await runToolCall(taskGetTool, { taskId: '1' }, world.ctx({ tasks })))).toBe('Task #1: One\nStatus: in_progress\nOwner: agent-7\nDescription: first')
  const refused = await runToolCall(taskUpdateTool, { taskId: '1', status: 'in_progress' }, world.ctx({ tasks }))
  expect(refused).toMatchObject({ isError: true, content: 'Task #1 is already in progress (owner: agent-7); pick another task.' })
})

it('answers with an error where the session has no task list', async () => {
  expect(await runToolCall(taskListTool, {}, world.ctx())).toEqual({ content: 'This session has no task list.', isError: true })
})
