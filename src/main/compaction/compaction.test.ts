import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { promptTooLong, textReply, toolUseReply, type JsonStep } from '../../../test/model-server'
import { useModelServer } from '../../../test/model-server/vitest'
import { isSummaryRequest, messagesOf, summaryReply, withSummaries } from '../../../test/support/compaction'
import { baseParams, expectPaired, ofType, runQuery, scriptedModel, testTool } from '../../../test/support/engine'
import type { Message } from '../services/model/types'
import { TaskStore } from '../store/tasks/task-store'
import { FileStateCache } from '../tools/file-state'
import { readTool } from '../tools/read'
import { ContextManager } from './manager'
import { planProvider, recentFilesProvider, skillsProvider, tasksProvider } from './restoration'
import { compactionSettings, type CompactionSettings } from './settings'

// Each layer driven through the real loop and SDK against the scripted server, which enforces a
// small context window (a request over it gets the API's 400 "prompt is too long").
const WINDOW = 24_000
const server = useModelServer({ contextWindow: WINDOW })

let project: string
beforeEach(async () => {
  project = await mkdtemp(join(tmpdir(), 'sous-compaction-'))
})
afterEach(async () => {
  await rm(project, { recursive: true, force: true })
})

/** A tool whose results cannot be fetched again (so only a summary or a collapse can shrink them). */
const probe = testTool('Probe', { safe: true, run: async (input) => ({ content: `probe ${input.value}: ${'measurement '.repeat(500)}` }) })

/** Settings for a small window; only the layer under test starts early. */
function settings(overrides: Partial<CompactionSettings> = {}): CompactionSettings {
  return compactionSettings({ contextWindow: WINDOW, overrides: { autoCompactAt: 14_000, microAt: 1e9, snipAbove: 1e9, summaryMaxTokens: 2_000, restoreTokens: 3_000, restoreTokensPerFile: 1_000, ...overrides } })
}

const probes = (count: number, from = 0): JsonStep[] => Array.from({ length: count }, (_, index) => toolUseReply('Probe', { value: String(from + index) }))

describe('auto-compact', () => {
  it('summarizes at the threshold with the session’s own tools and system prompt, then restores files, plan, skills and tasks in the request that follows', async () => {
    await writeFile(join(project, 'notes.txt'), 'first line of the notes\nsecond line\n')
    const plan = join(project, 'plan.md')
    await writeFile(plan, '# Plan\n1. Fix the build\n')
    const tasks = new TaskStore(join(project, 'tasks', 'list'))
    await tasks.create({ subject: 'Fix the build', description: 'make it green' }, 'main')
    const fileState = new FileStateCache()
    const replaced: Array<{ messages: Message[]; layer: string }> = []
    const context = new ContextManager({
      settings: settings(),
      restoration: [recentFilesProvider(fileState), planProvider(() => plan), skillsProvider(), tasksProvider({ store: tasks, listId: 'list', ownerOf: (id) => id })],
      onReplace: (messages, record) => replaced.push({ messages, layer: record.layer }),
    })
    const skill = testTool('Skill', { safe: true, run: async () => ({ content: '<skill name="deploy" file="/skills/deploy/SKILL.md">\nAlways run the smoke test.\n</skill>' }) })
    const script = withSummaries([toolUseReply('Read', { file_path: join(project, 'notes.txt') }), toolUseReply('Skill', { value: 'deploy' }), ...probes(12), textReply('All done.')])
    server.setScenario(script.steps, { loop: true })
    const { events, result } = await runQuery(baseParams(scriptedModel(server.url), { tools: [readTool, skill, probe], toolContext: { fileState }, context, maxTurns: 30 }))

    expect(result.reason).toBe('completed')
    expect(server.overflows).toEqual([])
    const summaryAt = server.requests.findIndex(isSummaryRequest)
    expect(summaryAt).toBeGreaterThan(0)
    const summaryRequest = server.requests[summaryAt]!
    const before = server.requests[summaryAt - 1]!
    // The summary request reuses the session's tools and system prompt (no tool may be called), so the cache is shared.
    expect(summaryRequest.body['tools']).toEqual(before.body['tools'])
    expect(summaryRequest.body['system']).toEqual(before.body['system'])
    expect(summaryRequest.body['max_tokens']).toBe(2_000)
    expect(summaryRequest.simulatedUsage.cache_read_input_tokens).toBeGreaterThan(before.simulatedUsage.cache_read_input_tokens)
    // The request that follows starts with the summary and what was restored.
    const after = messagesOf(server.requests[summaryAt + 1]!)
    const first = JSON.stringify(after[0])
    expect(first).toContain('The user asked for the build to be fixed')
    expect(first).toContain(`Contents of ${join(project, 'notes.txt')} as it is now`)
    expect(first).toContain('first line of the notes')
    expect(first).toContain('1. Fix the build')
    expect(first).toContain('Always run the smoke test.')
    expect(first).toContain('#1 [pending] Fix the build')
    expect(messagesOf(server.requests[summaryAt + 1]!).length).toBeLessThan(messagesOf(before).length)
    for (const request of server.requests.filter((entry) => !isSummaryRequest(entry))) expectPaired(messagesOf(request))
    expect(replaced.map((entry) => entry.layer)).toEqual(['auto'])
    expect(ofType(events, 'compaction').map((event) => [event.layer, event.status])).toEqual([['auto', 'done']])
    expect(ofType(events, 'compaction_start')).toHaveLength(1)
  })

  it('after three failed summaries in a row it stops trying, says so, and collapse keeps every request under the window', async () => {
    const refused: JsonStep = { error: { status: 400, type: 'invalid_request_error', message: 'summary refused' } }
    const script = withSummaries([...probes(30), textReply('Finished.')], [refused])
    server.setScenario(script.steps, { loop: true })
    const context = new ContextManager({ settings: settings() })
    const { events, result } = await runQuery(baseParams(scriptedModel(server.url), { tools: [probe], context, maxTurns: 40 }))

    expect(result.reason).toBe('completed')
    expect(server.overflows).toEqual([])
    expect(server.requests.filter(isSummaryRequest)).toHaveLength(3)
    const compactions = ofType(events, 'compaction')
    expect(compactions.filter((event) => event.layer === 'auto').map((event) => event.status)).toEqual(['failed', 'failed', 'failed'])
    expect(compactions.some((event) => event.layer === 'collapse' && event.status === 'done')).toBe(true)
    expect(ofType(events, 'notice').some((notice) => notice.message.includes('failed 3 times in a row'))).toBe(true)
    expect(context.breakerOpen).toBe(true)
    // The conversation itself was never cut: collapse only shaped what was sent.
    expect(result.messages.filter((message) => message.role === 'assistant')).toHaveLength(31)
    for (const request of server.requests.filter((entry) => !isSummaryRequest(entry))) expectPaired(messagesOf(request))
  })

  it('re-issues a summary whose stream broke, up to two times', async () => {
    const script = withSummaries(
      [...probes(6), textReply('Done.')],
      [
        { midStreamError: { type: 'overloaded_error' }, afterDeltas: 2, reply: { content: [{ type: 'text', text: '<summary>partial summary that never ends</summary>' }] } },
        { drop: 'mid-stream', afterDeltas: 2, reply: { content: [{ type: 'text', text: '<summary>another partial one</summary>' }] } },
        summaryReply('Third time lucky.'),
      ],
    )
    server.setScenario(script.steps, { loop: true })
    const context = new ContextManager({ settings: settings({ autoCompactAt: 8_000 }) })
    const { events, result } = await runQuery(baseParams(scriptedModel(server.url), { tools: [probe], context }))
    expect(result.reason).toBe('completed')
    expect(server.requests.filter(isSummaryRequest).length).toBeGreaterThanOrEqual(3)
    expect(ofType(events, 'compaction').map((event) => event.status)).toEqual(['done'])
    expect(JSON.stringify(result.messages[0])).toContain('Third time lucky.')
  })

  it('shortens a summary request that is itself too long and tries again', async () => {
    const sizes: number[] = []
    const script = withSummaries(
      [...probes(6), textReply('Done.')],
      [
        (request) => (sizes.push(messagesOf(request).length), promptTooLong(30_000, WINDOW)),
        (request) => (sizes.push(messagesOf(request).length), summaryReply('From the newer half.')),
      ],
    )
    server.setScenario(script.steps, { loop: true })
    const context = new ContextManager({ settings: settings({ autoCompactAt: 8_000 }) })
    const { events, result } = await runQuery(baseParams(scriptedModel(server.url), { tools: [probe], context }))
    expect(result.reason).toBe('completed')
    expect(sizes).toHaveLength(2)
    expect(sizes[1]).toBeLessThan(sizes[0]!)
    expect(ofType(events, 'compaction').map((event) => event.status)).toEqual(['done'])
  })
})

describe('micro-compact and snip', () => {
  it('clears old re-fetchable results once the threshold is crossed, and not again until it must', async () => {
    for (let index = 0; index < 8; index++) await writeFile(join(project, `f${index}.txt`), `${'content line\n'.repeat(200)}`)
    const reads = Array.from({ length: 8 }, (_, index) => toolUseReply('Read', { file_path: join(project, `f${index}.txt`) }))
    server.setScenario([...reads, textReply('Read them all.')])
    // The pressure mark (half the window in use) moved down to where this small run gets.
    const context = new ContextManager({ settings: settings({ pressureAt: 6_000, microAt: 6_000, microTo: 3_000, keepRecentResults: 2, autoCompactAt: 1e9 }) })
    const { events, result } = await runQuery(baseParams(scriptedModel(server.url), { tools: [readTool], toolContext: { fileState: new FileStateCache() }, context }))
    expect(result.reason).toBe('completed')
    const micro = ofType(events, 'compaction').filter((event) => event.layer === 'micro')
    expect(micro.length).toBeGreaterThanOrEqual(1)
    const last = JSON.stringify(messagesOf(server.requests.at(-1)!))
    expect(last).toContain('[Old tool result cleared to save context (Read')
    // The newest two results are whole.
    expect(last.split('content line').length - 1).toBeGreaterThanOrEqual(400)
    // Between micro-compactions each request read back everything the one before it wrote.
    const compactedBefore = new Set(micro.map((event) => event.messagesAfter))
    for (let index = 1; index < server.requests.length; index++) {
      const previous = server.requests[index - 1]!.simulatedUsage
      const current = server.requests[index]!.simulatedUsage
      if (compactedBefore.has(messagesOf(server.requests[index]!).length)) continue
      expect(current.cache_read_input_tokens).toBe(previous.cache_read_input_tokens + previous.cache_creation_input_tokens)
    }
  })

  it('by size, leaves the conversation (and its cache) alone while clearing would save less than the minimum', async () => {
    for (let index = 0; index < 6; index++) await writeFile(join(project, `f${index}.txt`), `${'content line\n'.repeat(200)}`)
    const run = async (microMinSavings: number) => {
      server.setScenario([...Array.from({ length: 6 }, (_, index) => toolUseReply('Read', { file_path: join(project, `f${index}.txt`) })), textReply('Read them all.')])
      // No low-water mark: every clearing takes all it can.
      const context = new ContextManager({ settings: settings({ pressureAt: 2_000, microAt: 2_000, microTo: 0, keepRecentResults: 2, autoCompactAt: 1e9, microMinSavings }) })
      const { events, result } = await runQuery(baseParams(scriptedModel(server.url), { tools: [readTool], toolContext: { fileState: new FileStateCache() }, context }))
      expect(result.reason).toBe('completed')
      return ofType(events, 'compaction').filter((event) => event.layer === 'micro')
    }
    // Without a minimum, every new result pushes one more old one out: a rewrite (and a cache miss) per request.
    expect((await run(0)).length).toBeGreaterThanOrEqual(3)
    // Four old results of about 1,000 tokens can never save 10,000: nothing is rewritten.
    const requestsBefore = server.requests.length
    expect(await run(10_000)).toEqual([])
    expect(JSON.stringify(messagesOf(server.requests.at(-1)!))).not.toContain('[Old tool result cleared')
    expect(server.requests.length - requestsBefore).toBe(7)
  })

  it('clears old results after the session was idle past the cache lifetime, whatever the size (past the pressure mark)', async () => {
    for (let index = 0; index < 4; index++) await writeFile(join(project, `f${index}.txt`), 'a line of text\n'.repeat(100))
    let now = 1_000_000
    const context = new ContextManager({ settings: settings({ pressureAt: 1_000, keepRecentResults: 1, autoCompactAt: 1e9 }), now: () => now })
    server.setScenario([...Array.from({ length: 4 }, (_, index) => toolUseReply('Read', { file_path: join(project, `f${index}.txt`) })), textReply('ok'), textReply('ok again')])
    const params = baseParams(scriptedModel(server.url), { tools: [readTool], toolContext: { fileState: new FileStateCache() }, context })
    const first = await runQuery(params)
    expect(ofType(first.events, 'compaction')).toEqual([])
    now += 6 * 60_000
    const second = await runQuery({ ...params, messages: [...first.result.messages, { role: 'user', content: [{ type: 'text', text: 'And now?' }] }] })
    const micro = ofType(second.events, 'compaction')
    expect(micro.map((event) => event.layer)).toEqual(['micro'])
    expect(micro[0]!.detail).toContain('idle')
  })

  it('with promptCacheTtl "1h", waits out the hour-long cache before an idle clearing', async () => {
    for (let index = 0; index < 4; index++) await writeFile(join(project, `f${index}.txt`), 'a line of text\n'.repeat(100))
    let now = 1_000_000
    const hourLong = compactionSettings({ contextWindow: WINDOW, promptCacheTtl: '1h', overrides: { autoCompactAt: 1e9, microAt: 1e9, snipAbove: 1e9, pressureAt: 1_000, keepRecentResults: 1 } })
    expect(hourLong.idleMs).toBe(60 * 60_000)
    const context = new ContextManager({ settings: hourLong, now: () => now })
    server.setScenario([...Array.from({ length: 4 }, (_, index) => toolUseReply('Read', { file_path: join(project, `f${index}.txt`) })), textReply('ok'), textReply('ok again'), textReply('ok at last')])
    const params = baseParams(scriptedModel(server.url), { tools: [readTool], toolContext: { fileState: new FileStateCache() }, context })
    const first = await runQuery(params)
    // Six idle minutes: past a 5-minute cache, but this one lives an hour, so nothing is rewritten.
    now += 6 * 60_000
    const second = await runQuery({ ...params, messages: [...first.result.messages, { role: 'user', content: [{ type: 'text', text: 'And now?' }] }] })
    expect(ofType(second.events, 'compaction')).toEqual([])
    now += 61 * 60_000
    const third = await runQuery({ ...params, messages: [...second.result.messages, { role: 'user', content: [{ type: 'text', text: 'And after lunch?' }] }] })
    expect(ofType(third.events, 'compaction').map((event) => event.layer)).toEqual(['micro'])
  })

  it('snips the middle past the message limit, keeping the first prompt and the newest rounds', async () => {
    server.setScenario([...probes(12), textReply('ok')])
    const small = testTool('Probe', { safe: true, run: async () => ({ content: 'tiny' }) })
    const context = new ContextManager({ settings: settings({ pressureAt: 500, snipAbove: 16, snipTo: 8, autoCompactAt: 1e9 }) })
    const { events, result } = await runQuery(baseParams(scriptedModel(server.url), { tools: [small], context }))
    expect(result.reason).toBe('completed')
    const snips = ofType(events, 'compaction').filter((event) => event.layer === 'snip')
    expect(snips.length).toBeGreaterThanOrEqual(1)
    const sent = messagesOf(server.requests.at(-1)!)
    expect(sent.length).toBeLessThanOrEqual(18)
    expect(JSON.stringify(sent[0])).toContain('Do the task.')
    expect(JSON.stringify(sent[0])).toContain('[Snipped:')
    expectPaired(sent)
  })
})

describe('reactive compaction', () => {
  it('with automatic compaction off after failures, an overflow falls back to a hard collapse and the request is sent again', async () => {
    server.setScenario([promptTooLong(30_000, WINDOW), textReply('fits')])
    const context = new ContextManager({ settings: settings({ maxFailures: 0 }) })
    const messages: Message[] = [{ role: 'user', content: [{ type: 'text', text: 'start' }] }]
    for (let index = 0; index < 6; index++) {
      messages.push({ role: 'assistant', content: [{ type: 'tool_use', id: `toolu_${index}`, name: 'Probe', input: { value: String(index) } }] })
      messages.push({ role: 'user', content: [{ type: 'tool_result', tool_use_id: `toolu_${index}`, content: 'measurement '.repeat(600) }] })
    }
    const { events, result } = await runQuery(baseParams(scriptedModel(server.url), { tools: [probe], messages, context }))
    expect(result.reason).toBe('completed')
    expect(server.requests.filter(isSummaryRequest)).toEqual([])
    expect(JSON.stringify(messagesOf(server.requests[1]!)).length).toBeLessThan(JSON.stringify(messagesOf(server.requests[0]!)).length / 2)
    expectPaired(messagesOf(server.requests[1]!))
    expect(ofType(events, 'compaction').map((event) => event.layer)).toEqual(['collapse'])
    expect(result.messages.length).toBe(messages.length + 1)
  })
})
