import { chmodSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { textReply, toolUseReply } from '../../../test/model-server'
import { useModelServer } from '../../../test/model-server/vitest'
import { isSummaryRequest, messagesOf, summaryReply, withSummaries } from '../../../test/support/compaction'
import type { AgentEvent } from '../../shared/protocol/agent-event'
import { createEventHub, type EventHub } from '../base/event-hub'
import { grantTrust, trustStatus } from '../governance/trust/trust'
import { NodePtyService } from '../pty/node-pty-service'
import { loadTranscript, transcriptPath } from '../store/transcript'
import { createSessionRuntime, type SessionRuntime } from '../runtime/runtime'

// Compaction as a user meets it, through the runtime every host uses: `/compact` between and
// during turns, the model's Compact tool, PreCompact/PostCompact hooks from the project's
// settings, the transcript's boundary, and resuming from the compacted view.
const server = useModelServer()

let base: string
let project: string
let home: string
let hub: EventHub
let events: AgentEvent[]
let pty: NodePtyService
let runtime: SessionRuntime

function startRuntime(): SessionRuntime {
  return createSessionRuntime({
    home,
    env: { ANTHROPIC_API_KEY: 'test', ANTHROPIC_BASE_URL: server.url, HOME: join(base, 'user') },
    hub,
    pty,
    permissionMode: 'default',
    answerer: 'interactive',
    userHome: join(base, 'user'),
    // These tests script every request; memory's side requests have their own tests (memory/agents).
    preferences: () => ({ autoMemory: false }),
  })
}

/** Project hooks for PreCompact and PostCompact, trusted as the user would in the trust step. */
function hooks(pre: string): void {
  mkdirSync(join(project, '.claude'), { recursive: true })
  const script = (name: string, body: string) => {
    const path = join(base, name)
    writeFileSync(path, `#!/bin/sh\n${body}\n`)
    chmodSync(path, 0o755)
    return path
  }
  const settings = {
    hooks: {
      PreCompact: [{ matcher: 'manual|auto', hooks: [{ type: 'command', command: script('pre.sh', `cat > ${join(base, 'pre.json')}\n${pre}`) }] }],
      PostCompact: [{ hooks: [{ type: 'command', command: script('post.sh', `cat > ${join(base, 'post.json')}`) }] }],
    },
  }
  writeFileSync(join(project, '.claude', 'settings.json'), JSON.stringify(settings))
  expect(grantTrust(project, home, trustStatus(project, home).fingerprint).ok).toBe(true)
}

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

beforeEach(() => {
  base = mkdtempSync(join(tmpdir(), 'sous-session-compaction-'))
  project = join(base, 'project')
  home = join(base, 'sous-home')
  mkdirSync(project, { recursive: true })
  mkdirSync(join(base, 'user'), { recursive: true })
  writeFileSync(join(project, 'notes.md'), 'The API is versioned under /v2.\n')
  hub = createEventHub()
  events = []
  hub.subscribe((channel, payload) => {
    if (channel === 'agent.event') events.push(payload as AgentEvent)
  })
  pty = new NodePtyService({ killGraceMs: 300 })
  runtime = startRuntime()
})
afterEach(async () => {
  await runtime.dispose()
  await pty.dispose()
  rmSync(base, { recursive: true, force: true })
})

describe('compaction in a session', () => {
  it('/compact summarizes between turns with its instructions, fires PreCompact and PostCompact, keeps the whole history on disk, and a resumed session goes on from the summary', async () => {
    hooks('exit 0')
    const { sessionId } = await runtime.sessions.create(project)
    server.setScenario([toolUseReply('Read', { file_path: join(project, 'notes.md') }), textReply('The API is under /v2.')])
    expect((await runtime.sessions.run(sessionId, 'Where is the API?')).reason).toBe('completed')

    server.setScenario([summaryReply('We found the API under /v2.')])
    const ended = turnEnd(sessionId)
    expect(await runtime.sessions.compact(sessionId, 'keep the API notes')).toEqual({ queued: false })
    const end = await ended
    expect(end.reason).toBe('completed')
    const summaryRequest = server.requests.at(-1)!
    expect(isSummaryRequest(summaryRequest)).toBe(true)
    expect(JSON.stringify(messagesOf(summaryRequest).at(-1))).toContain('keep the API notes')
    expect(JSON.parse(readFileSync(join(base, 'pre.json'), 'utf8'))).toMatchObject({ hook_event_name: 'PreCompact', trigger: 'manual', custom_instructions: 'keep the API notes' })
    expect(JSON.parse(readFileSync(join(base, 'post.json'), 'utf8'))).toMatchObject({ hook_event_name: 'PostCompact', trigger: 'manual', compact_summary: 'We found the API under /v2.' })
    expect(events.filter((event) => event.type === 'turn_start').map((event) => event.type === 'turn_start' && event.prompt)).toEqual(['Where is the API?', '/compact keep the API notes'])

    // The transcript keeps every earlier line and records the boundary with its figures.
    const path = transcriptPath(home, project, sessionId)
    const lines = readFileSync(path, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as { type: string; why?: string; compaction?: { layer: string } })
    expect(lines.filter((line) => line.type === 'message').length).toBe(4)
    expect(lines.filter((line) => line.type === 'messages_replaced').map((line) => [line.why, line.compaction?.layer])).toEqual([['compaction', 'manual']])

    await runtime.dispose()
    runtime = startRuntime()
    await runtime.sessions.resume(sessionId)
    server.setScenario([textReply('Still under /v2.')])
    expect((await runtime.sessions.run(sessionId, 'And now?')).reason).toBe('completed')
    const resumed = messagesOf(server.requests.at(-1)!)
    expect(JSON.stringify(resumed[0])).toContain('We found the API under /v2.')
    expect(JSON.stringify(resumed)).toContain('And now?')
    expect(JSON.stringify(resumed)).not.toContain('Where is the API?')
    expect((await runtime.sessions.inspectContext(sessionId)).history.map((record) => record.layer)).toEqual(['manual'])
    expect((await loadTranscript(path))!.messages.length).toBeGreaterThan(1)
  })

  it('a PreCompact hook that exits 2 keeps the conversation as it is and says why', async () => {
    hooks('echo "not during the release" >&2\nexit 2')
    const { sessionId } = await runtime.sessions.create(project)
    server.setScenario([textReply('Hello.')])
    await runtime.sessions.run(sessionId, 'Hi')
    const ended = turnEnd(sessionId)
    await runtime.sessions.compact(sessionId)
    const end = await ended
    expect(end.reason).toBe('hook_stopped')
    expect(end.message).toContain('not during the release')
    expect(server.requests.filter(isSummaryRequest)).toEqual([])
    const record = events.find((event) => event.type === 'compaction')
    expect(record).toMatchObject({ status: 'blocked', trigger: 'manual' })
  })

  it('the model’s Compact tool compacts before the next request, with its instructions', async () => {
    const { sessionId } = await runtime.sessions.create(project)
    const script = withSummaries(
      [toolUseReply('Read', { file_path: join(project, 'notes.md') }), toolUseReply('Compact', { instructions: 'focus on the API' }), textReply('Continuing from the summary.')],
      [summaryReply('Summary asked for by the model.')],
    )
    server.setScenario(script.steps, { loop: true })
    expect((await runtime.sessions.run(sessionId, 'Read the notes, then compact.')).reason).toBe('completed')
    const summaryAt = server.requests.findIndex(isSummaryRequest)
    expect(summaryAt).toBe(2)
    expect(JSON.stringify(messagesOf(server.requests[2]!).at(-1))).toContain('focus on the API')
    const next = messagesOf(server.requests[3]!)
    expect(JSON.stringify(next[0])).toContain('Summary asked for by the model.')
    // The notes were read, so they come back as they are now.
    expect(JSON.stringify(next[0])).toContain('The API is versioned under /v2.')
    const record = events.find((event) => event.type === 'compaction')
    expect(record).toMatchObject({ layer: 'manual', trigger: 'auto', status: 'done' })
  })

  it('/compact while a turn runs is queued and runs before that turn’s next request', async () => {
    const { sessionId } = await runtime.sessions.create(project)
    const script = withSummaries([{ ...toolUseReply('Read', { file_path: join(project, 'notes.md') }), delayMs: 40, chunkSize: 4 }, textReply('Done.')], [summaryReply('Queued summary.')])
    server.setScenario(script.steps, { loop: true })
    const turn = runtime.sessions.run(sessionId, 'Read the notes.')
    await new Promise<void>((resolve) => {
      const stop = hub.subscribe((_channel, payload) => {
        if ((payload as AgentEvent).type === 'request_start') {
          stop()
          resolve()
        }
      })
    })
    expect(await runtime.sessions.compact(sessionId, 'keep it short')).toEqual({ queued: true })
    expect((await turn).reason).toBe('completed')
    expect(server.requests.map(isSummaryRequest)).toEqual([false, true, false])
    expect(JSON.stringify(messagesOf(server.requests[2]!)[0])).toContain('Queued summary.')
    expect(events.find((event) => event.type === 'compaction')).toMatchObject({ layer: 'manual', trigger: 'manual', status: 'done' })
  })
})
