import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { textReply, toolUseReply } from '../../../test/model-server'
import type { AgentEvent } from '../../shared/protocol/agent-event'
import { createEventHub, type EventHub } from '../base/event-hub'
import { scriptedModel, testTool, untilAborted } from '../../../test/support/engine'
import type { Message } from '../services/model/types'
import { loadTranscript, TranscriptWriter, transcriptPath } from '../store/transcript'
import { SessionManager } from './session-manager'
import { bareParts } from '../../../test/support/sessions'
import { useModelServer } from '../../../test/model-server/vitest'

// One scripted Messages API server for this file (test/model-server), cleared before each test.
const server = useModelServer()

let home: string
let project: string
let hub: EventHub
let events: AgentEvent[]
let manager: SessionManager

const slow = testTool('Slow', { run: async (_input, ctx) => (await untilAborted(ctx.signal), { content: 'stopped', isError: true }) })
const echo = testTool('Echo', { safe: true, run: async (input) => ({ content: `echo ${input.value}` }) })

beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), 'sous-sessions-'))
  project = await mkdtemp(join(tmpdir(), 'sous-sessions-project-'))
  hub = createEventHub()
  events = []
  hub.subscribe((_channel, payload) => events.push(payload as AgentEvent))
  const model = scriptedModel(server.url)
  manager = new SessionManager({
    home,
    open: bareParts(() => ({
      hub,
      model: async () => model,
      modelName: 'claude-sonnet-4-6',
      toolset: async () => ({ tools: [slow, echo] }),
      canUseTool: async () => ({ behavior: 'allow' }),
      maxTurns: 10,
      homeDir: home,
    })),
  })
})
afterEach(async () => {
  await manager.dispose()
  await rm(home, { recursive: true, force: true })
  await rm(project, { recursive: true, force: true })
})

function turnEnd(sessionId: string): Promise<Extract<AgentEvent, { type: 'turn_end' }>> {
  return new Promise((resolve) => {
    const stop = hub.subscribe((_channel, payload) => {
      const event = payload as AgentEvent
      if (event.type === 'turn_end' && event.sessionId === sessionId) {
        stop()
        resolve(event)
      }
    })
  })
}

describe('SessionManager', () => {
  it('runs a prompt in the background, emits on the hub, and lists, renames, shows and deletes', async () => {
    server.setScenario([toolUseReply('Echo', { value: 'x' }), textReply('All good.')])
    const { sessionId } = await manager.create(project)
    const ended = turnEnd(sessionId)
    await manager.prompt(sessionId, 'Check the build\nplease')
    expect((await ended).reason).toBe('completed')
    expect(events.map((event) => event.type)).toContain('text_delta')
    expect(events[0]).toMatchObject({ type: 'turn_start', prompt: 'Check the build\nplease', sessionId })

    const [row] = await manager.list(project)
    expect(row).toMatchObject({ sessionId, title: 'Check the build', messageCount: 4 })
    await manager.rename(sessionId, 'Build check')
    expect((await manager.list())[0]?.title).toBe('Build check')
    const history = await manager.history(sessionId)
    expect(history.events.map((event) => event.type)).toEqual(expect.arrayContaining(['turn_start', 'tool_end', 'usage', 'turn_end']))
    expect(history.events.some((event) => event.type === 'text_delta')).toBe(false)

    await manager.delete(sessionId)
    expect(await manager.list(project)).toEqual([])
    await expect(manager.history(sessionId)).rejects.toMatchObject({ code: 'NOT_FOUND' })
  })

  it('refuses a second prompt while a turn runs, and aborts it cleanly', async () => {
    server.setScenario([toolUseReply('Slow', { value: '1' })])
    const { sessionId } = await manager.create(project)
    const ended = turnEnd(sessionId)
    const running = new Promise<void>((resolve) => hub.subscribe((_c, payload) => (payload as AgentEvent).type === 'tool_state' && (payload as { state: string }).state === 'running' && resolve()))
    await manager.prompt(sessionId, 'go')
    await running
    await expect(manager.prompt(sessionId, 'again')).rejects.toMatchObject({ code: 'CONFLICT' })
    await manager.abort(sessionId)
    expect((await ended).reason).toBe('aborted')
    const stored = await loadTranscript(transcriptPath(home, project, sessionId))
    const last = stored!.messages.at(-1) as Extract<Message, { role: 'user' }>
    expect(last.content).toEqual([expect.objectContaining({ type: 'tool_result', is_error: true })])
  })

  it('resumes a transcript cut mid-turn and goes on with a valid conversation', async () => {
    const sessionId = 'crashed-session'
    const writer = TranscriptWriter.create(transcriptPath(home, project, sessionId), { sessionId, projectPath: project })
    writer.appendMessage({ role: 'user', content: [{ type: 'text', text: 'start' }] })
    writer.appendMessage({ role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_lost', name: 'Echo', input: { value: 'x' } }] })
    server.setScenario([textReply('Picking up again.')])
    const summary = await manager.resume(sessionId)
    expect(summary.projectPath).toBe(project)
    const result = await manager.run(sessionId, 'continue please')
    expect(result.reason).toBe('completed')
    const sent = server.requests[0]!.body['messages'] as Message[]
    // The synthesized result and the new prompt go as one user turn (roles alternate), results first.
    expect(sent.map((message) => message.role)).toEqual(['user', 'assistant', 'user'])
    expect((sent[2]!.content as Array<{ type: string }>).map((block) => block.type)).toEqual(['tool_result', 'text'])
    expect(JSON.stringify(sent[2])).toContain('toolu_lost')
    expect(JSON.stringify(sent[2])).toContain('continue please')
    const reloaded = await loadTranscript(transcriptPath(home, project, sessionId))
    expect(reloaded!.repaired).toBe(false)
    expect(reloaded!.messages).toHaveLength(5)
  })

  it('a toolset that failed to build ends that turn with the error, and the next turn builds it again', async () => {
    server.setScenario([toolUseReply('Echo', { value: 'x' }), textReply('Built this time.')])
    let builds = 0
    const flaky = new SessionManager({
      home,
      open: bareParts(() => ({
        ...baseEnv(),
        toolset: async () => {
          if (++builds === 1) throw new Error('the Bash parser did not load')
          return { tools: [echo] }
        },
      })),
    })
    try {
      const { sessionId } = await flaky.create(project)
      const first = await flaky.run(sessionId, 'first')
      expect(first).toMatchObject({ reason: 'model_error', message: expect.stringContaining('the Bash parser did not load') })
      const second = await flaky.run(sessionId, 'second')
      expect(second.reason).toBe('completed')
      expect(builds).toBe(2)
    } finally {
      await flaky.dispose()
    }
  })

  it('continues the latest session of a project', async () => {
    server.setScenario([textReply('one'), textReply('two')])
    const { sessionId } = await manager.create(project)
    await manager.run(sessionId, 'first')
    // The first manager (think: another Sous process) lets go of the session first.
    await manager.dispose()
    const other = new SessionManager({ home, open: bareParts(() => ({ ...baseEnv() })) })
    try {
      const latest = await other.continueLatest(project)
      expect(latest.sessionId).toBe(sessionId)
      await expect(other.continueLatest(join(project, 'elsewhere'))).rejects.toMatchObject({ code: 'NOT_FOUND' })
    } finally {
      await other.dispose()
    }
  })
})

describe('one writer per session', () => {
  it('refuses a session another manager (another process) has open, and lets it go when that one ends', async () => {
    server.setScenario([textReply('one'), textReply('two'), textReply('three')])
    const { sessionId } = await manager.create(project)
    await manager.run(sessionId, 'first')
    const other = new SessionManager({ home, open: bareParts(() => ({ ...baseEnv() })) })
    try {
      await expect(other.resume(sessionId)).rejects.toMatchObject({ code: 'CONFLICT', message: expect.stringContaining('another Sous process') })
      await expect(other.delete(sessionId)).rejects.toMatchObject({ code: 'CONFLICT' })
      await expect(other.rename(sessionId, 'stolen')).rejects.toMatchObject({ code: 'CONFLICT' })
      await manager.run(sessionId, 'second')
      await manager.dispose()
      await other.resume(sessionId)
      await other.run(sessionId, 'third')
      const stored = await loadTranscript(transcriptPath(home, project, sessionId))
      expect(stored!.messages.map((m) => (m.role === 'user' ? JSON.stringify(m.content).match(/first|second|third/)?.[0] : m.role))).toEqual([
        'first',
        'assistant',
        'second',
        'assistant',
        'third',
        'assistant',
      ])
      expect(stored!.title).toBeUndefined()
    } finally {
      await other.dispose()
    }
  })

  it('opens a session once when two resumes race in one process', async () => {
    const sessionId = 'raced'
    TranscriptWriter.create(transcriptPath(home, project, sessionId), { sessionId, projectPath: project }).appendMessage({ role: 'user', content: 'hi' })
    const [a, b] = await Promise.all([manager.resume(sessionId), manager.resume(sessionId)])
    expect(a.sessionId).toBe(sessionId)
    expect(b.sessionId).toBe(sessionId)
  })
})

function baseEnv() {
  const model = scriptedModel(server.url)
  return {
    hub,
    model: async () => model,
    modelName: 'claude-sonnet-4-6',
    toolset: async () => ({ tools: [] }),
    canUseTool: async () => ({ behavior: 'allow' as const }),
    maxTurns: 10,
    homeDir: home,
  }
}
