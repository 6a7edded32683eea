import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { textReply, toolUseReply } from '../../../test/model-server'
import { useModelServer } from '../../../test/model-server/vitest'
import { messagesOf } from '../../../test/support/compaction'
import { baseParams, expectPaired, ofType, runQuery, scriptedModel, testTool } from '../../../test/support/engine'
import type { Message, ToolResultBlock } from '../services/model/types'
import { FileStateCache } from '../tools/file-state'
import { readTool } from '../tools/read'
import { ContextManager } from './manager'
import { compactionSettings } from './settings'
import { projectStreak } from './streak'

// The streak projection through the real loop, Read tool and SDK against the scripted server on
// a 200k window: under token pressure, in a scan of large files only the newest is sent whole and
// it is kept out of the cache; below the pressure mark, after a large read followed by other work,
// and for small results, everything is sent as it is.
const WINDOW = 200_000
const server = useModelServer({ contextWindow: WINDOW })

let project: string
beforeEach(async () => {
  project = await mkdtemp(join(tmpdir(), 'sous-streak-'))
})
afterEach(async () => {
  await rm(project, { recursive: true, force: true })
})

/** A file of about 13k tokens once Read numbers its lines: large on a 200k window. */
async function largeFile(name: string): Promise<string> {
  const path = join(project, name)
  await writeFile(path, `${Array.from({ length: 800 }, (_, line) => `${name} line ${line}: const value = compute(${line}, "some text");`).join('\n')}\n`)
  return path
}

/** Each tool result of a request: whether it went whole (not a placeholder). */
function results(messages: Message[]): Array<{ id: string; whole: boolean }> {
  return messages.flatMap((message) =>
    message.role === 'user' && typeof message.content !== 'string'
      ? message.content.flatMap((block) => (block.type === 'tool_result' ? [{ id: block.tool_use_id, whole: !JSON.stringify((block as ToolResultBlock).content).startsWith('"[Old tool result cleared') }] : []))
      : [],
  )
}

/** Where a request's breakpoints are: `message.block` of each marked block. */
function marks(messages: Message[]): string[] {
  return messages.flatMap((message, m) => (typeof message.content === 'string' ? [] : message.content.flatMap((block, b) => ('cache_control' in block && block.cache_control ? [`${m}.${b}`] : []))))
}

const small = testTool('Note', { safe: true, run: async (input) => ({ content: `noted ${input.value}` }) })

describe('the streak projection', () => {
  it('sends every file whole below the pressure mark', async () => {
    const files = await Promise.all(['a.ts', 'b.ts', 'c.ts', 'd.ts'].map(largeFile))
    server.setScenario([...files.map((file, index) => toolUseReply('Read', { file_path: file }, { id: `toolu_${index}` })), textReply('Read all four.')])
    const context = new ContextManager({ settings: compactionSettings({ contextWindow: WINDOW }) })
    const { result } = await runQuery(baseParams(scriptedModel(server.url), { tools: [readTool], toolContext: { fileState: new FileStateCache() }, context }))
    expect(result.reason).toBe('completed')
    for (const request of server.requests) expect(results(messagesOf(request)).every((entry) => entry.whole)).toBe(true)
    expect(server.requests[4]!.simulatedUsage.cache_read_input_tokens).toBeGreaterThan(30_000)
  })

  it('under token pressure sends only the newest of a scan of large files whole, after the last breakpoint', async () => {
    const files = await Promise.all(['a.ts', 'b.ts', 'c.ts', 'd.ts'].map(largeFile))
    server.setScenario([...files.map((file, index) => toolUseReply('Read', { file_path: file }, { id: `toolu_${index}` })), textReply('Read all four.')])
    // The pressure mark just above one file: the second file's request is under pressure (micro-compaction's own mark stays at 100k).
    const context = new ContextManager({ settings: compactionSettings({ contextWindow: WINDOW, overrides: { pressureAt: 20_000 } }) })
    const { events, result } = await runQuery(baseParams(scriptedModel(server.url), { tools: [readTool], toolContext: { fileState: new FileStateCache() }, context }))
    expect(result.reason).toBe('completed')
    // No layer rewrote the session's conversation, which keeps every file.
    expect(ofType(events, 'compaction')).toEqual([])
    expect(results(result.messages).every((entry) => entry.whole)).toBe(true)
    const sent = server.requests.map((request) => messagesOf(request))
    expect(results(sent[1]!)).toEqual([{ id: 'toolu_0', whole: true }])
    expect(results(sent[2]!)).toEqual([{ id: 'toolu_0', whole: false }, { id: 'toolu_1', whole: true }])
    expect(results(sent[4]!)).toEqual([{ id: 'toolu_0', whole: false }, { id: 'toolu_1', whole: false }, { id: 'toolu_2', whole: false }, { id: 'toolu_3', whole: true }])
    expect(JSON.stringify(sent[4]![2])).toContain('Call Read again if you need it.')
    // The first large result may be read again (it is cached); from the second on, the newest is
    // plain input: the last breakpoint sits on the call before it.
    expect(marks(sent[1]!).at(-1)).toBe('2.0')
    expect(marks(sent[4]!)).toEqual(['5.0', '7.0'])
    const usage = server.requests[4]!.simulatedUsage
    expect(usage.input_tokens).toBeGreaterThan(10_000)
    expect(usage.cache_creation_input_tokens).toBeLessThan(500)
    expectPaired(sent[4]!)
  })

  it('leaves a large read followed by other work whole, and cached', async () => {
    const file = await largeFile('big.ts')
    server.setScenario([toolUseReply('Read', { file_path: file }, { id: 'toolu_read' }), toolUseReply('Note', { value: '1' }), toolUseReply('Note', { value: '2' }), textReply('Done.')])
    const context = new ContextManager({ settings: compactionSettings({ contextWindow: WINDOW }) })
    const { result } = await runQuery(baseParams(scriptedModel(server.url), { tools: [readTool, small], toolContext: { fileState: new FileStateCache() }, context }))
    expect(result.reason).toBe('completed')
    for (const request of server.requests.slice(1)) expect(results(messagesOf(request))[0]).toEqual({ id: 'toolu_read', whole: true })
    // Read once into the cache, then read from it.
    expect(server.requests[1]!.simulatedUsage.cache_creation_input_tokens).toBeGreaterThan(10_000)
    expect(server.requests[3]!.simulatedUsage.cache_read_input_tokens).toBeGreaterThan(10_000)
  })

  it('keeps every part of one file read in parts', async () => {
    const file = await largeFile('long.ts')
    server.setScenario([toolUseReply('Read', { file_path: file, offset: 1, limit: 400 }), toolUseReply('Read', { file_path: file, offset: 401, limit: 400 }), textReply('Read both halves.')])
    const context = new ContextManager({ settings: compactionSettings({ contextWindow: WINDOW, overrides: { largeResultTokens: 5_000, pressureAt: 5_000 } }) })
    const { result } = await runQuery(baseParams(scriptedModel(server.url), { tools: [readTool], toolContext: { fileState: new FileStateCache() }, context }))
    expect(result.reason).toBe('completed')
    expect(results(messagesOf(server.requests[2]!)).map((entry) => entry.whole)).toEqual([true, true])
  })

  it('never stubs small results, nor results of tools that are not re-read-able', () => {
    const round = (id: string, name: string, content: string): Message[] => [
      { role: 'assistant', content: [{ type: 'tool_use', id, name, input: {} }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content }] },
    ]
    const large = 'x'.repeat(60_000)
    const messages: Message[] = [{ role: 'user', content: 'go' }, ...round('t1', 'Read', 'small'), ...round('t2', 'Read', large), ...round('t3', 'Bash', large), ...round('t4', 'Bash', large)]
    const projection = projectStreak(messages, { largeTokens: 10_000 })
    expect(projection.stubbed).toBe(0)
    expect(projection.send).toBe(messages)
    expect(projection.deferNewest).toBe(false)
  })
})
