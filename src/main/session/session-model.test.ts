import { mkdir, mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { textReply } from '../../../test/model-server'
import { useModelServer } from '../../../test/model-server/vitest'
import { isSummaryRequest, summaryReply, withSummaries } from '../../../test/support/compaction'
import type { AppError } from '../../shared/ipc/result'
import { createEventHub } from '../base/event-hub'
import { NodePtyService } from '../pty/node-pty-service'
import { createSessionRuntime, type SessionRuntime } from './runtime'

// `/model`: a session's next requests name the model chosen (aliases resolved), through the real SDK.
const server = useModelServer()

let base: string
let runtime: SessionRuntime
let pty: NodePtyService

beforeEach(async () => {
  base = await mkdtemp(join(tmpdir(), 'sous-session-model-'))
  pty = new NodePtyService({ killGraceMs: 300 })
  runtime = createSessionRuntime({
    home: join(base, 'sous-home'),
    env: { ANTHROPIC_API_KEY: 'test', ANTHROPIC_BASE_URL: server.url, PATH: process.env['PATH'] },
    hub: createEventHub(),
    pty,
    permissionMode: 'default',
    headless: true,
    userHome: join(base, 'home'),
  })
})
afterEach(async () => {
  await runtime.dispose()
  await pty.dispose()
  await rm(base, { recursive: true, force: true })
})

describe('switching a session\'s model', () => {
  it('names the chosen model in the next requests, and goes back to the default when asked', async () => {
    const project = join(base, 'project')
    await mkdir(project)
    server.setScenario([textReply('One.'), textReply('Two.'), textReply('Three.')])
    const { sessionId } = await runtime.sessions.create(project)
    await runtime.sessions.run(sessionId, 'first')
    expect(await runtime.sessions.setModel(sessionId, 'opus')).toEqual({ model: 'claude-opus-4-6' })
    await runtime.sessions.run(sessionId, 'second')
    expect(await runtime.sessions.setModel(sessionId, undefined)).toEqual({ model: 'claude-sonnet-4-6' })
    await runtime.sessions.run(sessionId, 'third')
    expect(server.requests.map((request) => request.body['model'])).toEqual(['claude-sonnet-4-6', 'claude-opus-4-6', 'claude-sonnet-4-6'])
    const unknown = await runtime.sessions.setModel('nope', 'opus').catch((error: unknown) => error)
    expect((unknown as AppError).code).toBe('NOT_FOUND')
  })

  it('compaction and the context view follow the chosen model: a smaller window compacts earlier', async () => {
    const project = join(base, 'project')
    await mkdir(project)
    const { sessionId } = await runtime.sessions.create(project)
    // 180,000 tokens (as the API counts them): well under a 1M window's thresholds, past a 200k
    // window's automatic compaction (167,000).
    const big = { usage: { input_tokens: 180_000 } }
    const script = withSummaries([textReply('Read it all.', big), textReply('Still here.', big), textReply('Summarized and on.')], [summaryReply('Everything was read.')])
    server.setScenario(script.steps, { loop: true })
    expect(await runtime.sessions.setModel(sessionId, 'claude-sonnet-4-6[1m]')).toEqual({ model: 'claude-sonnet-4-6[1m]' })
    await runtime.sessions.run(sessionId, 'Read everything')
    await runtime.sessions.run(sessionId, 'Go on')
    expect(server.requests.filter(isSummaryRequest)).toEqual([])
    expect(await runtime.sessions.inspectContext(sessionId)).toMatchObject({ model: 'claude-sonnet-4-6[1m]', window: 1_000_000, thresholds: { autoCompact: 1_000_000 - 20_000 - 13_000 } })

    await runtime.sessions.setModel(sessionId, undefined)
    expect(await runtime.sessions.inspectContext(sessionId)).toMatchObject({ model: 'claude-sonnet-4-6', window: 200_000, thresholds: { autoCompact: 167_000 } })
    await runtime.sessions.run(sessionId, 'And now?')
    const latest = server.requests.slice(-2)
    // The summary goes to the model the session uses, so it shares that model's cache.
    expect(latest.map((request) => [isSummaryRequest(request), request.body['model']])).toEqual([
      [true, 'claude-sonnet-4-6'],
      [false, 'claude-sonnet-4-6'],
    ])
    expect(JSON.stringify(latest[1]!.body['messages'])).toContain('Everything was read.')
  })
})
