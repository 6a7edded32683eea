import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { textReply, toolUseReply, toolUsesReply, type RecordedRequest, type Step } from '../../../../test/model-server'
import { useModelServer } from '../../../../test/model-server/vitest'
import { nextOn, promptOf, resultOf, systemOf, textOf, toolNamesOf, useAgentWorld } from '../../../../test/support/agents'
import type { Message } from '../../services/model/types'
import { projectDataDir } from '../../base/paths'
import { TaskStore, taskListDir } from '../../store/tasks/task-store'

// Agent teams through the real loop and the scripted server: the lead creates a team, teammates
// run as full agents, and everything between them goes through the mailbox files.
const server = useModelServer()
const world = useAgentWorld(() => server.url)

/** The text of the request's last message when it is a user message of text only (a new turn, or a delivered message). */
function lastText(request: Pick<RecordedRequest, 'body'>): string {
  const last = (request.body['messages'] as Message[]).at(-1)!
  if (last.role !== 'user' || (typeof last.content !== 'string' && last.content.some((block) => block.type === 'tool_result'))) return ''
  return textOf(last)
}

/** The text of the conversation's latest user message of text only: the prompt of the turn the request belongs to. */
function turnPrompt(request: Pick<RecordedRequest, 'body'>): string {
  const messages = request.body['messages'] as Message[]
  const last = [...messages].reverse().find((message) => message.role === 'user' && (typeof message.content === 'string' || !message.content.some((block) => block.type === 'tool_result')))
  return last ? textOf(last) : ''
}

/** A step's answer to a request (a function step is called with it). */
function play(step: Step | undefined, request: RecordedRequest): Exclude<Step, (request: RecordedRequest) => unknown> | ReturnType<Extract<Step, (request: RecordedRequest) => unknown>> {
  if (!step) throw new Error('the script ran out')
  return typeof step === 'function' ? step(request) : step
}

/** Resolves once `test` holds, polling; fails after `ms`. */
async function until(test: () => boolean | Promise<boolean>, ms = 30_000): Promise<void> {
  const end = Date.now() + ms
  while (!(await test())) {
    if (Date.now() > end) throw new Error('timed out waiting')
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

describe('agent teams', () => {
  it('a teammate asks, the ask reaches the user through the lead, the answer reaches the teammate; then idle, shutdown handshake, delete', async () => {
    const lead: Step[] = [
      toolUseReply('TeamCreate', { team_name: 'Alpha', description: 'Build things' }, { id: 'toolu_create' }),
      toolUseReply('Agent', { description: 'Builder', prompt: 'Run the build.', name: 'alice' }, { id: 'toolu_spawn' }),
      toolUseReply('SendMessage', { to: 'zed', message: 'Are you there?' }, { id: 'toolu_nobody' }),
      textReply('Team started.'),
    ]
    const inbox: Step[] = [
      // The idle notification: ask alice to shut down.
      toolUseReply('SendMessage', { to: 'alice', message: { type: 'shutdown_request', reason: 'All done.' } }, { id: 'toolu_shutdown' }),
      textReply('Asked alice to shut down.'),
      // Her approval: remove the team.
      toolUseReply('TeamDelete', {}, { id: 'toolu_delete' }),
      textReply('Team removed.'),
    ]
    const alice: Step[] = [
      toolUseReply('Bash', { command: 'touch built.txt' }, { id: 'toolu_build' }),
      textReply('Built.'),
      (request) => {
        const id = /"request_id":"(shutdown-[^"]+)"/.exec(lastText(request))![1]!
        return toolUseReply('SendMessage', { to: 'team-lead', message: { type: 'shutdown_response', request_id: id, approve: true } }, { id: 'toolu_bye' })
      },
      textReply('Bye.'),
    ]
    server.setScenario(
      [
        (request) => {
          const first = promptOf(request)
          if (first.includes('Run the build.')) return play(alice.shift(), request)
          if (turnPrompt(request).includes('[Inbox]')) return play(inbox.shift(), request)
          return play(lead.shift(), request)
        },
      ],
      { loop: true },
    )
    const { sessionId } = await world.runtime.sessions.create(world.project)
    const asked = nextOn(world, 'approval.requested')
    const first = await world.runtime.sessions.run(sessionId, 'Start the team.')
    expect(first.reason).toBe('completed')
    expect(resultOf(first.messages, 'toolu_create')?.content).toMatch(/Team "alpha" created/)
    expect(resultOf(first.messages, 'toolu_spawn')?.content).toMatch(/Spawned teammate "alice"/)
    // A message for a member that does not exist goes back to the sender as an error.
    const nobody = resultOf(first.messages, 'toolu_nobody')
    expect(nobody?.is_error).toBe(true)
    expect(nobody?.content).toMatch(/No member named "zed" in team "alpha".*team-lead, alice/)

    const teamDir = join(world.userHome, '.claude', 'teams', 'alpha')
    const config = JSON.parse(readFileSync(join(teamDir, 'config.json'), 'utf8'))
    expect(config).toMatchObject({ name: 'alpha', leadAgentId: 'team-lead@alpha', leadSessionId: sessionId })
    expect(config.members).toEqual([
      expect.objectContaining({ agentId: 'team-lead@alpha', name: 'team-lead', isActive: true }),
      expect.objectContaining({ agentId: 'alice@alpha', name: 'alice', agentType: 'general-purpose', color: 'blue', isActive: true }),
    ])

    // alice's Bash asks: through the lead's mailbox into the user's queue, naming her.
    const request = await asked
    expect(request).toMatchObject({ toolName: 'Bash', toolUseId: 'toolu_build', agent: { type: 'teammate alice' } })
    expect(world.events).toContainEqual(expect.objectContaining({ type: 'team_message', from: 'alice', to: 'team-lead', kind: 'permission_request' }))
    const queue = [...world.runtime.approvals.queues()].find((entry) => entry.sessionId === sessionId)!.queue
    queue.resolve(request.id, { kind: 'allow_once' })
    await until(() => existsSync(join(world.project, 'built.txt')))
    expect(world.events).toContainEqual(expect.objectContaining({ type: 'team_message', from: 'team-lead', to: 'alice', kind: 'permission_response' }))

    // alice is a teammate: the addendum, SendMessage, her own context.
    const aliceFirst = server.requests.find((entry) => promptOf(entry).includes('Run the build.'))!
    expect(systemOf(aliceFirst)).toContain('Just writing a response in text is not visible to others on your team - you MUST use the SendMessage tool.')
    expect(toolNamesOf(aliceFirst)).toContain('SendMessage')
    expect(toolNamesOf(aliceFirst)).not.toContain('TeamCreate')
    expect(JSON.stringify(aliceFirst.body['messages'])).not.toContain('Start the team.')
    expect(world.events.find((event) => event.type === 'agent_start')).toMatchObject({ team: { name: 'alpha', member: 'alice', color: 'blue' } })

    // Her Stop: an idle notification wakes the lead with an [Inbox] turn; the lead asks her to shut down.
    await until(() => server.requests.some((entry) => lastText(entry).includes('[Inbox]')))
    const inboxTurn = server.requests.find((entry) => lastText(entry).includes('[Inbox]'))!
    expect(lastText(inboxTurn)).toContain('<teammate-message teammate_id="alice" color="blue">')
    expect(lastText(inboxTurn)).toContain('"type":"idle_notification"')
    // She approves the shutdown; the lead hears it and deletes the team.
    await until(() => !existsSync(teamDir))
    const shutdown = server.requests.find((entry) => lastText(entry).includes('shutdown_request'))!
    expect(lastText(shutdown)).toContain('This is a shutdown request. To approve it, call SendMessage')
    expect(world.events).toContainEqual(expect.objectContaining({ type: 'team_message', from: 'alice', to: 'team-lead', kind: 'shutdown_approved' }))
    await until(() => inbox.length === 0)
    const deleted = server.requests.find((entry) => JSON.stringify(entry.body['messages']).includes('Cleaned up the directories of team'))
    expect(deleted).toBeDefined()
  }, 60_000)

  it('idle teammates claim unowned, unblocked tasks themselves, each task exactly once', async () => {
    const claims: Array<{ who: string; task: string }> = []
    const teammate = (who: string) => (request: RecordedRequest): ReturnType<typeof textReply> => {
      const last = lastText(request)
      const claimed = /You claimed task #(\d+)/.exec(last)
      if (claimed) {
        claims.push({ who, task: claimed[1]! })
        return toolUseReply('TaskUpdate', { taskId: claimed[1]!, status: 'completed' }, { id: `toolu_${who}_${claimed[1]}` })
      }
      return textReply(`${who} is ready for work.`)
    }
    const lead: Step[] = [
      toolUsesReply([1, 2, 3, 4, 5].map((n) => ({ name: 'TaskCreate', input: { subject: `Part ${n}`, description: `Do part ${n}.` }, id: `toolu_task_${n}` }))),
      toolUseReply('TaskUpdate', { taskId: '5', addBlockedBy: ['4'] }, { id: 'toolu_block' }),
      toolUseReply('TeamCreate', { team_name: 'crew' }, { id: 'toolu_create' }),
      toolUsesReply([
        { name: 'Agent', input: { description: 'Worker A', prompt: 'Wait for work, alice.', name: 'alice' }, id: 'toolu_alice' },
        { name: 'Agent', input: { description: 'Worker B', prompt: 'Wait for work, bob.', name: 'bob' }, id: 'toolu_bob' },
      ]),
      textReply('Crew started.'),
    ]
    server.setScenario(
      [
        (request) => {
          const first = promptOf(request)
          if (first.includes('Wait for work, alice.')) return teammate('alice')(request)
          if (first.includes('Wait for work, bob.')) return teammate('bob')(request)
          if (turnPrompt(request).includes('[Inbox]')) return textReply('Noted.')
          return play(lead.shift(), request)
        },
      ],
      { loop: true },
    )
    const { sessionId } = await world.runtime.sessions.create(world.project)
    const started = await world.runtime.sessions.run(sessionId, 'Split the work.')
    expect(started.reason).toBe('completed')
    const store = new TaskStore(taskListDir(projectDataDir(world.home, world.project), sessionId))
    await until(async () => (await store.list()).tasks.every((task) => task.status === 'completed'), 45_000)
    const tasks = (await store.list()).tasks
    expect(tasks.map((task) => task.id)).toEqual(['1', '2', '3', '4', '5'])
    // Every task claimed once, by one teammate, under its name; the blocked one only after its blocker.
    expect(claims.map((claim) => claim.task).sort()).toEqual(['1', '2', '3', '4', '5'])
    for (const task of tasks) expect(task.owner).toBe(claims.find((claim) => claim.task === task.id)!.who)
    expect(claims.findIndex((claim) => claim.task === '5')).toBeGreaterThan(claims.findIndex((claim) => claim.task === '4'))
    expect(new Set(claims.map((claim) => claim.who))).toEqual(new Set(['alice', 'bob']))
  }, 60_000)
})
