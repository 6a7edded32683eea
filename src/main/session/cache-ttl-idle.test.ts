import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { textReply, toolUseReply } from '../../../test/model-server'
import { useModelServer } from '../../../test/model-server/vitest'
import { useAgentWorld } from '../../../test/support/agents'

// A session's idle clearing follows the cache lifetime its requests ask for (`promptCacheTtl`),
// read from the settings files as the session runs (the context view states the figure it uses).
const server = useModelServer()
const world = useAgentWorld(() => server.url, { model: 'claude-sonnet-4-6' })

async function idleLine(): Promise<string> {
  // Two reads: the older one is what an idle clearing would clear (the view states when).
  for (const name of ['a.txt', 'b.txt']) writeFileSync(join(world.project, name), 'a line worth reading\n'.repeat(100))
  server.setScenario([toolUseReply('Read', { file_path: join(world.project, 'a.txt') }), toolUseReply('Read', { file_path: join(world.project, 'b.txt') }), textReply('Read both.')])
  const { sessionId } = await world.runtime.sessions.create(world.project)
  expect((await world.runtime.sessions.run(sessionId, 'Read a and b.')).reason).toBe('completed')
  const text = JSON.stringify(await world.runtime.sessions.inspectContext(sessionId))
  return /after (\d+) idle minutes/.exec(text)?.[1] ?? 'not stated'
}

describe('idle micro-compaction and promptCacheTtl', () => {
  it('waits 5 minutes by default and an hour with "1h"', async () => {
    expect(await idleLine()).toBe('5')
    mkdirSync(join(world.project, '.claude'), { recursive: true })
    writeFileSync(join(world.project, '.claude', 'settings.json'), JSON.stringify({ promptCacheTtl: '1h' }))
    expect(await idleLine()).toBe('60')
  })
})
