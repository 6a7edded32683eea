import { expect, it } from 'vitest'
import { textReply } from '../../../test/model-server'
import { useModelServer } from '../../../test/model-server/vitest'
import { useAgentWorld } from '../../../test/support/agents'
import { CONTEXT_1M_BETA, DEFAULT_MODEL } from '../services/model/config'

// Claude Code's `[1m]` model names through the runtime every host uses: the API hears the model id
// without the suffix plus the 1M-window beta; compaction keeps working to the 1M window.
const server = useModelServer()

const world = useAgentWorld(() => server.url)

const windows = () => world.events.flatMap((event) => (event.type === 'context_status' ? [event.window] : []))

it('sends sonnet[1m] as the model id with the 1M-context beta, and compacts to the 1M window', async () => {
  server.setScenario([textReply('Plain.'), textReply('Wide.')])
  const { sessionId } = await world.runtime.sessions.create(world.project)
  await world.runtime.sessions.run(sessionId, 'Hello')
  expect(await world.runtime.sessions.setModel(sessionId, 'sonnet[1m]')).toEqual({ model: `${DEFAULT_MODEL}[1m]` })
  await world.runtime.sessions.run(sessionId, 'Hello again')
  expect(server.failures).toEqual([])

  const [plain, wide] = server.requests
  expect(plain!.model).toBe(DEFAULT_MODEL)
  expect(String(plain!.headers['anthropic-beta'] ?? '')).not.toContain(CONTEXT_1M_BETA)
  expect(wide!.model).toBe(DEFAULT_MODEL)
  expect(String(wide!.headers['anthropic-beta']).split(',')).toContain(CONTEXT_1M_BETA)
  expect(windows().at(0)).toBe(200_000)
  expect(windows().at(-1)).toBe(1_000_000)
})
