import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { fixtureEntry } from '../../../test/mcp/fixture'
import { textReply, toolUseReply } from '../../../test/model-server'
import { useModelServer } from '../../../test/model-server/vitest'
import { routeByPrompt, useAgentWorld } from '../../../test/support/agents'
import { isSummaryRequest, messagesOf, summaryReply, withSummaries } from '../../../test/support/compaction'

// Subfolder CLAUDE.md files load on first touch, for the main agent and its subagents, and what
// arrived as reminders (those files, MCP servers' instructions) comes back after a compaction —
// through the session runtime every host uses, real MCP server processes and the real SDK. And the
// one compaction threshold a settings file may set, `autoCompactWindow`.
const server = useModelServer()
const world = useAgentWorld(() => server.url, { answerer: 'unattended' })

const RULE = 'SUBFOLDER-RULE: indent the api package with tabs.'

async function subfolder(): Promise<{ a: string; b: string }> {
  const folder = join(world.project, 'packages', 'api')
  await mkdir(folder, { recursive: true })
  await writeFile(join(folder, 'CLAUDE.md'), `${RULE}\n`)
  await writeFile(join(folder, 'a.ts'), 'export const a = 1\n')
  await writeFile(join(folder, 'b.ts'), 'export const b = 2\n')
  return { a: join(folder, 'a.ts'), b: join(folder, 'b.ts') }
}

const count = (text: string, part: string) => text.split(part).length - 1

describe('subfolder instructions and restoration', () => {
  it('loads a subfolder CLAUDE.md on the first touch below it, once, and brings it and the MCP instructions back after a compaction', async () => {
    const { a, b } = await subfolder()
    await writeFile(join(world.project, '.mcp.json'), JSON.stringify({ mcpServers: { docs: fixtureEntry() } }))
    const script = withSummaries(
      [toolUseReply('Glob', { pattern: '*.md' }), toolUseReply('Read', { file_path: a }), toolUseReply('Read', { file_path: b }), textReply('Read both.'), textReply('Going on from the summary.')],
      [summaryReply('We read two files of the api package.')],
    )
    server.setScenario(script.steps, { loop: true })
    const { sessionId } = await world.runtime.sessions.create(world.project)
    expect((await world.runtime.sessions.run(sessionId, 'Read the api package.')).reason).toBe('completed')
    // A Glob at the root touches no subfolder; the first Read below packages/api loads its CLAUDE.md,
    // with that call's result (the request after it), and the second Read there does not again.
    expect(JSON.stringify(messagesOf(server.requests[1]!))).not.toContain('SUBFOLDER-RULE')
    const afterFirstRead = messagesOf(server.requests[2]!).at(-1)!
    expect(JSON.stringify(afterFirstRead)).toContain('SUBFOLDER-RULE')
    expect(JSON.stringify(afterFirstRead)).toContain('Instructions for files under packages/api')
    expect(count(JSON.stringify(messagesOf(server.requests[3]!)), 'SUBFOLDER-RULE')).toBe(1)

    await world.runtime.mcp.peek(world.project)!.waitFor(undefined, 20_000)
    await world.runtime.sessions.compact(sessionId)
    // `/compact` between turns is a turn of its own: wait for its end.
    await expect.poll(() => world.events.filter((event) => event.type === 'turn_end' && event.agentId === 'main').length, { timeout: 20_000 }).toBe(2)
    expect(server.requests.findIndex(isSummaryRequest)).toBeGreaterThan(0)
    expect((await world.runtime.sessions.run(sessionId, 'Go on.')).reason).toBe('completed')
    const after = JSON.stringify(messagesOf(server.requests.at(-1)!)[0])
    expect(after).toContain('We read two files of the api package.')
    expect(after).toContain('Restored after compaction.')
    expect(after).toContain(RULE)
    expect(after).toContain('MCP server \\"docs\\" is connected. Its instructions:\\nA fixture server for tests.')
    expect(server.failures).toEqual([])
  })

  it('a subagent loads the subfolder CLAUDE.md it touches into its own conversation', async () => {
    const { a } = await subfolder()
    server.setScenario(
      [
        routeByPrompt({
          'PLEASE-DELEGATE': [toolUseReply('Agent', { description: 'Read a', prompt: 'SUB-TASK: read a.ts.', subagent_type: 'general-purpose' }, { id: 'toolu_agent' }), textReply('Delegated.')],
          'SUB-TASK': [toolUseReply('Read', { file_path: a }), textReply('SUB-RESULT: a is 1.')],
        }),
      ],
      { loop: true },
    )
    const { sessionId } = await world.runtime.sessions.create(world.project)
    expect((await world.runtime.sessions.run(sessionId, 'PLEASE-DELEGATE the reading.')).reason).toBe('completed')
    const sub = server.requests.filter((request) => JSON.stringify(messagesOf(request)[0]).includes('SUB-TASK'))
    expect(sub).toHaveLength(2)
    expect(JSON.stringify(messagesOf(sub[1]!).at(-1))).toContain(RULE)
    // The main agent never touched the folder: its requests do not carry the file.
    const main = server.requests.filter((request) => JSON.stringify(messagesOf(request)[0]).includes('PLEASE-DELEGATE'))
    for (const request of main) expect(JSON.stringify(messagesOf(request))).not.toContain('SUBFOLDER-RULE')
    expect(server.failures).toEqual([])
  })
})

describe('autoCompactWindow', () => {
  it('derives the thresholds from the setting when it is smaller than the window; a bad value is said once, with file and line, and the default applies', async () => {
    await mkdir(join(world.project, '.claude'), { recursive: true })
    const file = join(world.project, '.claude', 'settings.json')
    await writeFile(file, '{\n  "autoCompactWindow": 60000\n}\n')
    server.setScenario([textReply('One.'), textReply('Two.'), textReply('Three.')])
    const good = await world.runtime.sessions.create(world.project)
    await world.runtime.sessions.run(good.sessionId, 'Hello')
    expect((await world.runtime.sessions.inspectContext(good.sessionId)).window).toBe(60_000)

    await writeFile(file, '{\n  "autoCompactWindow": "lots"\n}\n')
    const bad = await world.runtime.sessions.create(world.project)
    await world.runtime.sessions.run(bad.sessionId, 'Hello')
    await world.runtime.sessions.run(bad.sessionId, 'Again')
    expect((await world.runtime.sessions.inspectContext(bad.sessionId)).window).toBe(200_000)
    const said = world.events.filter((event) => event.type === 'notice' && event.sessionId === bad.sessionId && event.message.includes('autoCompactWindow'))
    expect(said).toHaveLength(1)
    expect(said[0]).toMatchObject({ message: expect.stringContaining(`${file}:2:3: autoCompactWindow must be a positive whole number of tokens, not "lots"`) })
  })
})
