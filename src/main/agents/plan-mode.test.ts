import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { textReply, toolUseReply } from '../../../test/model-server'
import { useModelServer } from '../../../test/model-server/vitest'
import { requests, type EventPayload, type RequestInput } from '../../shared/ipc/contract'
import type { AgentEvent } from '../../shared/protocol/agent-event'
import { createEventHub, type EventHub } from '../base/event-hub'
import { approvalHandlers } from '../host/handlers/approval'
import { NodePtyService } from '../pty/node-pty-service'
import type { Message, ToolResultBlock } from '../services/model/types'
import { createSessionRuntime, type SessionRuntime } from '../runtime/runtime'

// Plan mode on the main side, as the desktop runs it: the real runtime and gate, the scripted model
// server, and approvals answered through the contract's `approval.reply` handler.
const server = useModelServer()

let base: string
let project: string
let userHome: string
let hub: EventHub
let pty: NodePtyService
let runtime: SessionRuntime
let events: AgentEvent[]

beforeEach(() => {
  base = mkdtempSync(join(tmpdir(), 'sous-plan-'))
  project = join(base, 'project')
  userHome = join(base, 'home')
  mkdirSync(project)
  mkdirSync(userHome)
  hub = createEventHub()
  events = []
  hub.subscribe((channel, payload) => {
    if (channel === 'agent.event') events.push(payload as AgentEvent)
  })
  pty = new NodePtyService({ killGraceMs: 300 })
  runtime = createSessionRuntime({
    home: join(base, 'sous-home'),
    env: { ANTHROPIC_API_KEY: 'test', ANTHROPIC_BASE_URL: server.url, HOME: userHome },
    hub,
    pty,
    preferences: () => ({ autoMemory: false }),
    permissionMode: 'default',
    answerer: 'interactive',
    userHome,
    sandbox: false,
  })
})
afterEach(async () => {
  await runtime.dispose()
  await pty.dispose()
  rmSync(base, { recursive: true, force: true })
})

/** Answers each approval as it comes, in order, through the contract's handler. */
function answer(...replies: Array<(request: EventPayload<'approval.requested'>) => Omit<RequestInput<'approval.reply'>, 'id'>>): EventPayload<'approval.requested'>[] {
  const seen: EventPayload<'approval.requested'>[] = []
  hub.subscribe((channel, payload) => {
    if (channel !== 'approval.requested') return
    const request = payload as EventPayload<'approval.requested'>
    const next = replies[seen.length]
    seen.push(request)
    if (!next) return
    const input = requests['approval.reply'].input.parse({ id: request.id, ...next(request) })
    void approvalHandlers(runtime.approvals)['approval.reply'](input, { sender: { transport: 'internal' } })
  })
  return seen
}

/** The tool_result the model got for request `index`'s call. */
function resultOf(index: number): { text: string; isError: boolean } {
  const messages = server.requests[index + 1]!.body['messages'] as Message[]
  const block = (messages.at(-1)!.content as ToolResultBlock[])[0]!
  return { text: typeof block.content === 'string' ? block.content : JSON.stringify(block.content), isError: block.is_error === true }
}

const modes = (): string[] => events.filter((e) => e.type === 'mode_change').map((e) => (e.type === 'mode_change' ? `${e.previous}→${e.mode}` : ''))

describe('plan mode', () => {
  it('asks to enter, refuses writes, and follows an edited, approved plan into acceptEdits', async () => {
    const file = join(project, 'a.txt')
    server.setScenario([
      toolUseReply('EnterPlanMode', {}),
      toolUseReply('Write', { file_path: file, content: 'too early' }),
      toolUseReply('ExitPlanMode', { plan: '# Plan\n\n1. Write a.txt' }),
      toolUseReply('Write', { file_path: file, content: 'done' }),
      textReply('Implemented.'),
    ])
    const { sessionId } = await runtime.sessions.create(project)
    const asked = answer(
      () => ({ decision: 'allow_once' }),
      () => ({ decision: 'allow_once', plan: '# Plan\n\n1. Write a.txt with "done"\n', planMode: 'acceptEdits' }),
    )
    const result = await runtime.sessions.run(sessionId, 'Add a.txt, but plan first')
    expect(result.reason).toBe('completed')
    expect(server.failures).toEqual([])
    expect(asked.map((request) => [request.toolName, request.preview?.kind])).toEqual([
      ['EnterPlanMode', 'text'],
      ['ExitPlanMode', 'plan'],
    ])
    expect(resultOf(0).text).toMatch(/^Entered plan mode\./)
    expect(resultOf(1)).toMatchObject({ isError: true, text: expect.stringMatching(/Plan mode is active: only read-only tools may run/) })
    const planFile = join(userHome, '.claude', 'plans', `${sessionId}.md`)
    expect(asked[1]!.preview).toEqual({ kind: 'plan', plan: '# Plan\n\n1. Write a.txt', filePath: planFile })
    expect(resultOf(2).text).toContain('The user approved your plan and plan mode is over (edits are accepted without asking)')
    expect(resultOf(2).text).toContain('The user edited the plan before approving it')
    expect(resultOf(2).text).toMatch(/## Approved plan\n\n# Plan\n\n1\. Write a\.txt with "done"\n$/)
    expect(readFileSync(planFile, 'utf8')).toBe('# Plan\n\n1. Write a.txt with "done"\n')
    // acceptEdits now: the write ran without a third approval.
    expect(readFileSync(file, 'utf8')).toBe('done')
    expect(asked).toHaveLength(2)
    expect(modes()).toEqual(['default→plan', 'plan→acceptEdits'])
    expect(runtime.gate(sessionId)?.mode).toBe('acceptEdits')
  })

  it('keeps planning with the user’s feedback, then restores the mode from before plan mode', async () => {
    server.setScenario([
      toolUseReply('ExitPlanMode', { plan: 'Rewrite everything' }),
      toolUseReply('ExitPlanMode', { plan: 'Change one function' }),
      textReply('Going ahead.'),
    ])
    const { sessionId } = await runtime.sessions.create(project)
    await runtime.sessions.setMode(sessionId, 'acceptEdits')
    await runtime.sessions.setMode(sessionId, 'plan')
    answer(
      () => ({ decision: 'reject', message: 'Too big: touch only parseConfig' }),
      () => ({ decision: 'allow_once' }),
    )
    const result = await runtime.sessions.run(sessionId, 'Fix the config bug')
    expect(result.reason).toBe('completed')
    // The model was told plan mode is on before its first request.
    const first = (server.requests[0]!.body['messages'] as Message[])[0]!
    expect(JSON.stringify(first.content)).toMatch(/<system-reminder>\\nPlan mode is active\./)
    expect(resultOf(0)).toEqual({
      isError: true,
      text: expect.stringMatching(/^The user wants you to keep planning; plan mode stays on\. Their feedback: Too big: touch only parseConfig\n/),
    })
    expect(resultOf(1).text).toContain('plan mode is over (edits are accepted without asking)')
    expect(modes()).toEqual(['plan→acceptEdits'])
  })

  it('refuses ExitPlanMode outside plan mode, and an empty plan', async () => {
    server.setScenario([toolUseReply('ExitPlanMode', { plan: 'x' }), textReply('ok')])
    const { sessionId } = await runtime.sessions.create(project)
    await runtime.sessions.run(sessionId, 'go')
    expect(resultOf(0)).toMatchObject({ isError: true, text: expect.stringMatching(/^You are not in plan mode\./) })
    expect(existsSync(join(userHome, '.claude', 'plans'))).toBe(false)
  })

  it('a rejected EnterPlanMode leaves the mode alone and tells the model', async () => {
    server.setScenario([toolUseReply('EnterPlanMode', {}), textReply('Fine, no plan.')])
    const { sessionId } = await runtime.sessions.create(project)
    answer(() => ({ decision: 'reject', message: 'just do it' }))
    await runtime.sessions.run(sessionId, 'go')
    expect(resultOf(0)).toEqual({ isError: true, text: 'Plan mode was not entered: The user rejected this EnterPlanMode call and said: just do it' })
    expect(runtime.gate(sessionId)?.mode).toBe('default')
    expect(modes()).toEqual([])
  })

  it('saves plans under CLAUDE_CONFIG_DIR when set, as Claude Code does', async () => {
    const configDir = join(base, 'claude-config')
    await runtime.dispose()
    runtime = createSessionRuntime({
      home: join(base, 'sous-home'),
      env: { ANTHROPIC_API_KEY: 'test', ANTHROPIC_BASE_URL: server.url, CLAUDE_CONFIG_DIR: configDir },
      hub,
      pty,
      permissionMode: 'plan',
      answerer: 'unattended',
      userHome,
      sandbox: false,
    })
    writeFileSync(join(project, 'note.txt'), 'x')
    server.setScenario([toolUseReply('ExitPlanMode', { plan: 'Step one' }), textReply('Stopping here.')])
    const { sessionId } = await runtime.sessions.create(project)
    await runtime.sessions.run(sessionId, 'plan it')
    expect(readFileSync(join(configDir, 'plans', `${sessionId}.md`), 'utf8')).toBe('Step one\n')
  })
})
