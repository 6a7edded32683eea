import { readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { textReply, toolUseReply } from '../../test/model-server'
import { useModelServer } from '../../test/model-server/vitest'
import { useHeadless } from '../../test/support/headless'
import type { AgentEvent } from '../shared/protocol/agent-event'
import { projectDataDir } from '../main/base/paths'
import type { Message, ToolResultBlock } from '../main/services/model/types'

// The four task tools through `sous -p`: the real SDK against the scripted server, the real store
// on disk in a temp SOUS_HOME, the real permission gate (headless: an ask would be a denial).
const server = useModelServer()

const headless = useHeadless(server)
const sous = (args: string[], env: Record<string, string> = {}) => headless.sous(args, { env })

/** What the model got back for the call of request `index` (the results come in the next request). */
function resultOf(index: number): { text: string; isError: boolean } {
  const messages = server.requests[index + 1]!.body['messages'] as Message[]
  const block = (messages.at(-1)!.content as ToolResultBlock[])[0]!
  const text = typeof block.content === 'string' ? block.content : JSON.stringify(block.content)
  return { text, isError: block.is_error === true }
}

describe('task tools through sous -p', () => {
  it('create, block, claim, complete, delete and list, with no approval asked', async () => {
    server.setScenario([
      toolUseReply('TaskCreate', { subject: 'Write the parser', description: 'Parse the config file', activeForm: 'Writing the parser' }),
      toolUseReply('TaskCreate', { subject: 'Test the parser', description: 'Unit tests for every rule' }),
      toolUseReply('TaskUpdate', { taskId: '2', addBlockedBy: ['1'] }),
      toolUseReply('TaskUpdate', { taskId: '2', status: 'in_progress' }),
      toolUseReply('TaskUpdate', { taskId: '1', status: 'in_progress' }),
      toolUseReply('TaskUpdate', { taskId: '1', status: 'completed' }),
      toolUseReply('TaskCreate', { subject: 'Obsolete idea', description: 'Not needed after all', metadata: { source: 'review' } }),
      toolUseReply('TaskUpdate', { taskId: '#3', status: 'deleted' }),
      toolUseReply('TaskList', {}),
      toolUseReply('TaskGet', { taskId: '2' }),
      toolUseReply('TaskUpdate', { taskId: '2', bogus: true }),
      textReply('The parser is done; its tests are next.'),
    ])
    const { code, stdout } = await sous(['--output-format', 'sous-events', 'Plan and do the parser work'])
    expect(code).toBe(0)
    expect(server.failures).toEqual([])
    expect(resultOf(0)).toEqual({ text: 'Task #1 created successfully: Write the parser', isError: false })
    expect(resultOf(2)).toEqual({ text: 'Updated task #2 blockedBy.', isError: false })
    expect(resultOf(3)).toEqual({ text: 'Task #2 is blocked by #1, which must be completed first.', isError: true })
    expect(resultOf(4)).toEqual({ text: 'Updated task #1 owner, status.', isError: false })
    expect(resultOf(5)).toEqual({ text: 'Updated task #1 status.\nNow unblocked: #2 Test the parser.', isError: false })
    expect(resultOf(7)).toEqual({ text: 'Task #3 deleted.', isError: false })
    expect(resultOf(8)).toEqual({ text: '#1 [completed] Write the parser (owner: main)\n#2 [pending] Test the parser', isError: false })
    expect(resultOf(9).text).toBe('Task #2: Test the parser\nStatus: pending\nDescription: Unit tests for every rule\nBlocked by: #1 Write the parser [completed]')
    expect(resultOf(10)).toMatchObject({ isError: true, text: expect.stringMatching(/Unrecognized key: "bogus"/) })

    const lines = stdout.trim().split('\n').map((line) => JSON.parse(line) as AgentEvent | { type: 'result'; permission_denials: unknown[]; session_id: string })
    const result = lines.at(-1) as { type: 'result'; permission_denials: unknown[]; session_id: string }
    expect(result.permission_denials).toEqual([])
    // The list lives in the session's own folder, one file per task (the deleted one is gone).
    const dir = join(projectDataDir(headless.home, headless.project), 'tasks', result.session_id)
    expect((await readdir(dir)).filter((name) => name.endsWith('.json')).sort()).toEqual(['1.json', '2.json'])
    expect(JSON.parse(await readFile(join(dir, '1.json'), 'utf8'))).toMatchObject({ status: 'completed', owner: 'main', blocks: ['2'], activeForm: 'Writing the parser' })
    // Each change went out as a task_update event, for the UI to follow.
    const updates = lines.filter((line): line is Extract<AgentEvent, { type: 'task_update' }> => line.type === 'task_update')
    expect(updates.map((u) => [u.tasks.map((t) => `${t.id}:${t.status}`).join(' '), u.deleted.join(' ')])).toEqual([
      ['1:pending', ''],
      ['2:pending', ''],
      ['2:pending 1:pending', ''],
      ['1:in_progress', ''],
      ['1:completed', ''],
      ['3:pending', ''],
      ['', '3'],
    ])
    expect(updates[0]).toMatchObject({ listId: result.session_id, actor: 'main' })
  })

  it('runs in plan mode, where only read-only and bookkeeping tools pass', async () => {
    server.setScenario([
      toolUseReply('TaskCreate', { subject: 'Read the code', description: 'Find where config is parsed' }),
      toolUseReply('Write', { file_path: join(headless.project, 'x.txt'), content: 'no' }),
      textReply('Planned.'),
    ])
    const { code } = await sous(['--permission-mode', 'plan', 'Plan it'])
    expect(code).toBe(0)
    expect(resultOf(0)).toEqual({ text: 'Task #1 created successfully: Read the code', isError: false })
    expect(resultOf(1)).toMatchObject({ isError: true, text: expect.stringMatching(/Plan mode is active/) })
  })

  it('shares a list by name between sessions, each main agent owning tasks under its own name', async () => {
    server.setScenario([toolUseReply('TaskCreate', { subject: 'Shared work', description: 'Anyone may take it' }), toolUseReply('TaskUpdate', { taskId: '1', status: 'in_progress' }), textReply('Taken.')])
    expect((await sous(['first'], { SOUS_TASK_LIST: 'team-a' })).code).toBe(0)
    server.requests.length = 0
    server.setScenario([toolUseReply('TaskUpdate', { taskId: '1', status: 'in_progress' }), toolUseReply('TaskList', {}), textReply('It is taken.')])
    expect((await sous(['second'], { SOUS_TASK_LIST: 'team-a' })).code).toBe(0)
    expect(resultOf(0)).toMatchObject({ isError: true, text: expect.stringMatching(/^Task #1 is already in progress \(owner: main@[0-9a-f]{8}\)/) })
    expect(resultOf(1).text).toMatch(/^#1 \[in_progress\] Shared work \(owner: main@[0-9a-f]{8}\)$/)
    expect(await readdir(join(projectDataDir(headless.home, headless.project), 'tasks'))).toEqual(['team-a'])
  })

  it('keeps a list of its own, with a warning, when the shared name is not a plain folder name', async () => {
    server.setScenario([toolUseReply('TaskCreate', { subject: 'x', description: 'y' }), textReply('ok')])
    const { code, stderr } = await sous(['--verbose', 'go'], { SOUS_TASK_LIST: '../../escape' })
    expect(code).toBe(0)
    expect(stderr).toMatch(/task list name "..\/..\/escape" is not usable/)
    const lists = await readdir(join(projectDataDir(headless.home, headless.project), 'tasks'))
    expect(lists).toHaveLength(1)
    expect(lists[0]).toMatch(/^[0-9a-f-]{36}$/)
  })
})
