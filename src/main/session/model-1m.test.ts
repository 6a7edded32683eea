import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, expect, it } from 'vitest'
import { textReply } from '../../../test/model-server'
import { useModelServer } from '../../../test/model-server/vitest'
import type { AgentEvent } from '../../shared/protocol/agent-event'
import { createEventHub } from '../base/event-hub'
import { NodePtyService } from '../pty/node-pty-service'
import { CONTEXT_1M_BETA, DEFAULT_MODEL } from '../services/model/config'
import { createSessionRuntime, type SessionRuntime } from './runtime'

// Claude Code's `[1m]` model names through the runtime every host uses: the API hears the model id
// without the suffix plus the 1M-window beta; compaction keeps working to the 1M window.
const server = useModelServer()

let base: string
let events: AgentEvent[]
let pty: NodePtyService
let runtime: SessionRuntime

beforeEach(() => {
  base = mkdtempSync(join(tmpdir(), 'sous-1m-'))
  events = []
  const hub = createEventHub()
  hub.subscribe((channel, payload) => channel === 'agent.event' && events.push(payload as AgentEvent))
  pty = new NodePtyService({ killGraceMs: 300 })
  runtime = createSessionRuntime({
    home: join(base, 'sous'),
    env: { ANTHROPIC_API_KEY: 'test', ANTHROPIC_BASE_URL: server.url, HOME: join(base, 'user') },
    hub,
    pty,
    permissionMode: 'default',
    headless: false,
    userHome: join(base, 'user'),
    preferences: () => ({ autoMemory: false }),
  })
})
afterEach(async () => {
  await runtime.dispose()
  await pty.dispose()
  rmSync(base, { recursive: true, force: true })
})

const windows = () => events.flatMap((event) => (event.type === 'context_status' ? [event.window] : []))

it('sends sonnet[1m] as the model id with the 1M-context beta, and compacts to the 1M window', async () => {
  server.setScenario([textReply('Plain.'), textReply('Wide.')])
  const { sessionId } = await runtime.sessions.create(base)
  await runtime.sessions.run(sessionId, 'Hello')
  expect(await runtime.sessions.setModel(sessionId, 'sonnet[1m]')).toEqual({ model: `${DEFAULT_MODEL}[1m]` })
  await runtime.sessions.run(sessionId, 'Hello again')
  expect(server.failures).toEqual([])

  const [plain, wide] = server.requests
  expect(plain!.model).toBe(DEFAULT_MODEL)
  expect(String(plain!.headers['anthropic-beta'] ?? '')).not.toContain(CONTEXT_1M_BETA)
  expect(wide!.model).toBe(DEFAULT_MODEL)
  expect(String(wide!.headers['anthropic-beta']).split(',')).toContain(CONTEXT_1M_BETA)
  expect(windows().at(0)).toBe(200_000)
  expect(windows().at(-1)).toBe(1_000_000)
})
