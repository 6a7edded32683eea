import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { textReply, toolUseReply } from '../../../test/model-server'
import { useModelServer } from '../../../test/model-server/vitest'
import type { AgentEvent } from '../../shared/protocol/agent-event'
import { createEventHub, type EventHub } from '../base/event-hub'
import { scriptedModel, testTool } from '../../../test/support/engine'
import { SessionManager } from './session-manager'
import { bareParts } from '../../../test/support/sessions'

// The desktop's request guard: at `maxTurns` a turn waits for the user instead of ending.
const server = useModelServer()

let home: string
let project: string
let hub: EventHub
let manager: SessionManager

const echo = testTool('Echo', { safe: true, run: async (input) => ({ content: `echo ${input.value}` }) })

beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), 'sous-guard-'))
  project = await mkdtemp(join(tmpdir(), 'sous-guard-project-'))
  hub = createEventHub()
  const model = scriptedModel(server.url)
  manager = new SessionManager({
    home,
    open: bareParts(() => ({ hub, model: async () => model, modelName: 'claude-sonnet-4-6', toolset: async () => ({ tools: [echo] }), canUseTool: async () => ({ behavior: 'allow' }), maxTurns: 2, askToContinue: true, homeDir: home })),
  })
})
afterEach(async () => {
  await manager.dispose()
  await rm(home, { recursive: true, force: true })
  await rm(project, { recursive: true, force: true })
})

/** Resolves with the first event of `type` in this session. */
function next<T extends AgentEvent['type']>(sessionId: string, type: T): Promise<Extract<AgentEvent, { type: T }>> {
  return new Promise((resolve) => {
    const stop = hub.subscribe((_channel, payload) => {
      const event = payload as AgentEvent
      if (event.type === type && event.sessionId === sessionId) {
        stop()
        resolve(event as Extract<AgentEvent, { type: T }>)
      }
    })
  })
}

const calls = (count: number) => Array.from({ length: count }, (_, index) => toolUseReply('Echo', { value: String(index) }))

describe('the request guard', () => {
  it('asks at the limit; going on gives another round, stopping ends with max_turns', async () => {
    server.setScenario([...calls(4), textReply('never reached')])
    const { sessionId } = await manager.create(project)
    const firstQuestion = next(sessionId, 'turn_limit')
    const turn = manager.run(sessionId, 'Loop')
    expect((await firstQuestion).turns).toBe(2)
    expect(server.requests).toHaveLength(2)
    const secondQuestion = next(sessionId, 'turn_limit')
    await manager.continueTurn(sessionId, true)
    expect((await secondQuestion).turns).toBe(4)
    await manager.continueTurn(sessionId, false)
    const result = await turn
    expect(result.reason).toBe('max_turns')
    expect(server.requests).toHaveLength(4)
    await expect(manager.continueTurn(sessionId, true)).rejects.toMatchObject({ code: 'CONFLICT' })
  })

  it('a stop while the question waits ends the turn as aborted', async () => {
    server.setScenario(calls(3))
    const { sessionId } = await manager.create(project)
    const question = next(sessionId, 'turn_limit')
    const turn = manager.run(sessionId, 'Loop')
    await question
    await manager.abort(sessionId)
    expect((await turn).reason).toBe('aborted')
  })
})
