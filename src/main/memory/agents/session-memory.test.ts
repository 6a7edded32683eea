// Longer than 300 lines: recall, extraction and their restoration after a compaction share one
// runtime set-up (temp homes, the scripted server's lanes), and read best side by side.
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { textReply, toolUseReply } from '../../../../test/model-server'
import type { Step } from '../../../../test/model-server/types'
import { useModelServer } from '../../../../test/model-server/vitest'
import { recallAnswered } from '../../../../test/support/memory'
import { flattenPrompt } from '../../../../test/model-server/cache-sim'
import { summaryReply } from '../../../../test/support/compaction'
import type { AgentEvent } from '../../../shared/protocol/agent-event'
import { createEventHub } from '../../base/event-hub'
import { NodePtyService } from '../../pty/node-pty-service'
import { SMALL_FAST_MODEL } from '../../services/model/ask'
import { DEFAULT_MODEL, MODEL_ALIASES } from '../../services/model/config'
import type { Message } from '../../services/model/types'
import { createSessionRuntime, type SessionRuntime } from '../../runtime/runtime'
import type { RuntimePreferences } from '../../runtime/options'

// Recall and extraction end to end: the session runtime every host uses, the real SDK against the
// scripted Messages API server, real memory folders in temp homes. Recall (the small model) and
// the turn (the main model) run in parallel, so each has its own lane of the script (`forModel`).
const server = useModelServer()

let root: string
let project: string
let events: AgentEvent[]
let preferences: RuntimePreferences
let pty: NodePtyService
let runtime: SessionRuntime

const main = (step: Step): Step => ({ ...(step as object), forModel: DEFAULT_MODEL }) as Step
const recall = (ids: string[], extra: object = {}): Step => ({ ...textReply(JSON.stringify({ memories: ids })), forModel: SMALL_FAST_MODEL, ...extra }) as Step
const answer = (memories: object[]): Step => main(textReply(JSON.stringify({ memories })))

const pnpm = {
  scope: 'project',
  name: 'Use pnpm',
  description: 'Scripts run with pnpm here, never npm',
  type: 'feedback',
  body: 'Run scripts with pnpm.\n\n**Why:** npm rewrote the pnpm lockfile last time.\n**How to apply:** pnpm install, pnpm test; never npm.',
}

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'sous-recall-'))
  project = join(root, 'app')
  await mkdir(project)
  await writeFile(join(project, 'README.md'), '# App\n')
  events = []
  preferences = {}
  const hub = createEventHub()
  hub.subscribe((channel, payload) => channel === 'agent.event' && events.push(payload as AgentEvent))
  pty = new NodePtyService({ killGraceMs: 300 })
  runtime = createSessionRuntime({
    home: join(root, 'sous'),
    env: { ANTHROPIC_API_KEY: 'test', ANTHROPIC_BASE_URL: server.url },
    hub,
    pty,
    permissionMode: 'default',
    answerer: 'interactive',
    userHome: join(root, 'home'),
    preferences: () => preferences,
  })
})
afterEach(async () => {
  await runtime.dispose()
  await pty.dispose()
  await rm(root, { recursive: true, force: true })
})

async function projectFolder(): Promise<string> {
  return (await runtime.memory.locate(project)).project.dir
}

async function seedMemory(): Promise<void> {
  const written = await runtime.memory.agentWrite(project, 'earlier-session', { ...pnpm, scope: 'project' }, new Date())
  expect(written.kind).toBe('written')
}

const mainRequests = () => server.requests.filter((request) => request.model === DEFAULT_MODEL)
const ofType = <T extends AgentEvent['type']>(type: T) => events.filter((event): event is Extract<AgentEvent, { type: T }> => event.type === type)

/**
 * A turn that recalls the pnpm memory: the recall lane's answer, then a Read whose reply is held
 * until the recall answer is in (so "the first request after they arrive" is certain), "Done.",
 * and an extraction that saves nothing.
 */
function turnWithRecall(): Step[] {
  const recallArrived = recallAnswered(events)
  return [
    recall(['project/feedback_use_pnpm.md']),
    async () => {
      await recallArrived
      return toolUseReply('Read', { file_path: join(project, 'README.md') })
    },
    main(textReply('Done.')),
    answer([]),
  ]
}

describe('recall', () => {
  it('attaches the picks to the first request that starts after they arrive, and records them', async () => {
    await seedMemory()
    server.setScenario(turnWithRecall())
    const { sessionId } = await runtime.sessions.create(project)
    const result = await runtime.sessions.run(sessionId, 'Install the dependencies')
    await runtime.sessions.idle(sessionId)
    expect(result.reason).toBe('completed')
    expect(server.failures).toEqual([])

    const recallRequest = server.requests.find((request) => request.model === SMALL_FAST_MODEL)!
    expect(JSON.stringify(recallRequest.body['messages'])).toContain('Install the dependencies')
    expect(JSON.stringify(recallRequest.body['messages'])).toContain('project/feedback_use_pnpm.md (feedback) Use pnpm: Scripts run with pnpm here, never npm')
    const [first, second] = mainRequests()
    // Not in the first request (it left without waiting), in the next one, with the memory's text.
    expect(JSON.stringify(first!.body['messages'])).not.toContain('Memories recalled')
    const toolResults = (second!.body['messages'] as Message[]).at(-1)!
    expect(JSON.stringify(toolResults.content)).toContain('Memories recalled for this request')
    expect(JSON.stringify(toolResults.content)).toContain('npm rewrote the pnpm lockfile')
    expect((toolResults.content as Array<{ type: string }>)[0]!.type).toBe('tool_result')

    const [recalled] = ofType('memory_recall')
    expect(recalled).toMatchObject({ attached: true, model: SMALL_FAST_MODEL, memories: [{ scope: 'project', file: 'feedback_use_pnpm.md', name: 'Use pnpm' }] })
    const path = join(await projectFolder(), 'feedback_use_pnpm.md')
    expect((await runtime.memory.activity.about(path)).map((entry) => [entry.sessionId, entry.action])).toEqual([
      [sessionId, 'recalled'],
      ['earlier-session', 'created'],
    ])
    // The recall's cost is the session's: the last usage total includes it.
    const usages = ofType('usage')
    const recallCost = usages.find((event) => event.agentId === 'memory' && event.model === SMALL_FAST_MODEL)!
    expect(recallCost.requestCostUsd).toBeGreaterThan(0)
    expect(usages.at(-1)!.costUsd).toBeGreaterThan(recallCost.requestCostUsd! + 0)
  })

  it('never holds the turn: a slow recall arrives after the turn ended and is recorded as not sent', async () => {
    await seedMemory()
    server.setScenario([
      // About a second of streaming for a one-line answer: far slower than the turn.
      recall(['project/feedback_use_pnpm.md'], { chunkSize: 3, delayMs: 60 }),
      main(toolUseReply('Read', { file_path: join(project, 'README.md') })),
      main(textReply('Done.')),
      answer([]),
    ])
    const { sessionId } = await runtime.sessions.create(project)
    await runtime.sessions.run(sessionId, 'Install the dependencies')
    const endedAt = events.findIndex((event) => event.type === 'turn_end')
    await runtime.sessions.idle(sessionId)
    expect(server.failures).toEqual([])
    const recalled = events.findIndex((event) => event.type === 'memory_recall')
    expect(endedAt).toBeGreaterThanOrEqual(0)
    expect(recalled).toBeGreaterThan(endedAt)
    expect(events[recalled]).toMatchObject({ type: 'memory_recall', attached: false })
    for (const request of mainRequests()) expect(JSON.stringify(request.body['messages'])).not.toContain('Memories recalled')
  })

  it('asks nothing when there is no memory, and nothing at all when memory is off', async () => {
    server.setScenario([main(textReply('Hi.')), answer([])])
    const { sessionId } = await runtime.sessions.create(project)
    await runtime.sessions.run(sessionId, 'Hello')
    await runtime.sessions.idle(sessionId)
    expect(server.requests.map((request) => request.model)).toEqual([DEFAULT_MODEL, DEFAULT_MODEL])
    expect(server.failures).toEqual([])

    await seedMemory()
    preferences = { autoMemory: false }
    server.requests.length = 0
    server.setScenario([main(textReply('Hi again.'))])
    const second = await runtime.sessions.create(project)
    await runtime.sessions.run(second.sessionId, 'Hello again')
    await runtime.sessions.idle(second.sessionId)
    expect(server.requests).toHaveLength(1)
    expect(JSON.stringify(server.requests[0]!.body['system'])).not.toContain('# Memory')
    expect(server.failures).toEqual([])
  })
})

describe('after a compaction', () => {
  it('the memories recalled in the session come back with the summary, and are not recalled twice', async () => {
    await seedMemory()
    server.setScenario([
      ...turnWithRecall(),
      main(summaryReply('We installed the dependencies.')),
      main(textReply('Second.')),
      answer([]),
    ])
    const { sessionId } = await runtime.sessions.create(project)
    await runtime.sessions.run(sessionId, 'Install the dependencies')
    await runtime.sessions.idle(sessionId)
    await runtime.sessions.compact(sessionId)
    await vi.waitFor(() => expect(ofType('turn_end')).toHaveLength(2), { timeout: 20_000 })
    await runtime.sessions.run(sessionId, 'And the tests?')
    await runtime.sessions.idle(sessionId)
    expect(server.failures).toEqual([])
    const first = JSON.stringify(mainRequests().find((request) => JSON.stringify(request.body['messages']).includes('And the tests?'))!.body['messages'])
    expect(first).toContain('We installed the dependencies.')
    expect(first).toContain('Memories recalled earlier in this session')
    expect(first).toContain('npm rewrote the pnpm lockfile')
    // Restored, it counts as shown: recall offers nothing new, so it asks nothing.
    expect(server.requests.filter((request) => request.model === SMALL_FAST_MODEL)).toHaveLength(1)
  })
})

describe('extraction', () => {
  it('turns a correction into a feedback memory from the cached prefix, and does not duplicate it next turn', async () => {
    server.setScenario([
      main(toolUseReply('Read', { file_path: join(project, 'README.md') })),
      main(textReply('Understood: pnpm from now on.')),
      answer([pnpm]),
      // Turn two: recall now has a memory to look at; the agent proposes the same memory again.
      recall([]),
      main(textReply('Tests pass.')),
      answer([{ ...pnpm, file: 'feedback_use_pnpm.md' }]),
    ])
    const { sessionId } = await runtime.sessions.create(project)
    await runtime.sessions.run(sessionId, "No, don't use npm in this repo: use pnpm. npm rewrote the lockfile last time.")
    await runtime.sessions.idle(sessionId)

    // The extraction request is the turn's last request plus the reply and one instruction.
    const turnRequests = mainRequests()
    const [, last, extraction] = turnRequests
    expect(extraction!.body['system']).toEqual(last!.body['system'])
    expect(extraction!.body['tools']).toEqual(last!.body['tools'])
    const extractionMessages = extraction!.body['messages'] as Message[]
    expect(stripMarks(extractionMessages.slice(0, -2))).toEqual(stripMarks(last!.body['messages'] as Message[]))
    expect(JSON.stringify(extractionMessages.at(-1))).toContain('<memory-extraction>')
    expect(JSON.stringify(extractionMessages.at(-1))).toContain("No, don't use npm in this repo")
    // …so it reads from the prompt cache everything the turn's last request wrote there.
    const previous = last!.simulatedUsage
    expect(extraction!.simulatedUsage.cache_read_input_tokens).toBe(previous.cache_read_input_tokens + previous.cache_creation_input_tokens)
    expect(breakpoints(extraction!.body)).toContain(Math.max(...breakpoints(last!.body)))

    const folder = await projectFolder()
    const text = await readFile(join(folder, 'feedback_use_pnpm.md'), 'utf8')
    expect(text).toMatch(/^---\nname: Use pnpm\ndescription: Scripts run with pnpm here, never npm\ntype: feedback\n---\n/)
    expect(text).toContain('**Why:**')
    expect(text).toContain('**How to apply:**')
    expect(await readFile(join(folder, 'MEMORY.md'), 'utf8')).toBe('- [Use pnpm](feedback_use_pnpm.md) — Scripts run with pnpm here, never npm\n')
    const [write] = ofType('memory_write')
    expect(write).toMatchObject({ change: 'created', memoryType: 'feedback', memory: { scope: 'project', file: 'feedback_use_pnpm.md' }, changeId: expect.any(String) })
    // Its cost is the session's.
    const extractionUsage = ofType('usage').filter((event) => event.agentId === 'memory').at(-1)!
    expect(extractionUsage.model).toBe(DEFAULT_MODEL)
    expect(extractionUsage.total.cacheReadTokens).toBeGreaterThan(0)

    await runtime.sessions.run(sessionId, 'Thanks. Now run the tests.')
    await runtime.sessions.idle(sessionId)
    expect(server.failures).toEqual([])
    // Told what it wrote since the conversation began, it proposed the same memory: nothing new.
    const second = mainRequests().at(-1)!
    expect(JSON.stringify((second.body['messages'] as Message[]).at(-1))).toContain('<memory scope=\\"project\\" file=\\"feedback_use_pnpm.md\\">')
    expect(JSON.stringify((second.body['messages'] as Message[]).at(-1))).toContain('Thanks. Now run the tests.')
    expect(JSON.stringify((second.body['messages'] as Message[]).at(-1))).not.toContain("don't use npm in this repo")
    expect((await readdir(folder)).sort()).toEqual(['MEMORY.md', 'feedback_use_pnpm.md'])
    expect(ofType('memory_write')).toHaveLength(1)
    // The main agent heard about the new memory on its next request, without the system prompt changing.
    const turnTwo = mainRequests().at(-2)!
    expect(JSON.stringify(turnTwo.body['messages'])).toContain('After your last turn Sous saved these memories')
    expect(turnTwo.body['system']).toEqual(last!.body['system'])
  })

  it('after /model, asks the model the turn used, so it reads the turn\'s cache and bills that model', async () => {
    const opus = MODEL_ALIASES['opus']!
    const onOpus = (step: Step): Step => ({ ...(step as object), forModel: opus }) as Step
    server.setScenario([onOpus(toolUseReply('Read', { file_path: join(project, 'README.md') })), onOpus(textReply('Read it.')), onOpus(textReply(JSON.stringify({ memories: [] })))])
    const { sessionId } = await runtime.sessions.create(project)
    expect(await runtime.sessions.setModel(sessionId, 'opus')).toEqual({ model: opus })
    await runtime.sessions.run(sessionId, 'Look at the README.')
    await runtime.sessions.idle(sessionId)
    expect(server.failures).toEqual([])

    // Every request of the turn and the extraction went to the switched model; none to the default.
    expect(mainRequests()).toEqual([])
    const [, last, extraction] = server.requests.filter((request) => request.model === opus)
    expect(JSON.stringify((extraction!.body['messages'] as Message[]).at(-1))).toContain('<memory-extraction>')
    const previous = last!.simulatedUsage
    expect(previous.cache_read_input_tokens + previous.cache_creation_input_tokens).toBeGreaterThan(0)
    expect(extraction!.simulatedUsage.cache_read_input_tokens).toBe(previous.cache_read_input_tokens + previous.cache_creation_input_tokens)
    const extractionUsage = ofType('usage').filter((event) => event.agentId === 'memory').at(-1)!
    expect(extractionUsage.model).toBe(opus)
  })

  it('reads only the memory folders, and the JSON it answers with never names a path', async () => {
    const outside = join(root, 'secret.txt')
    await writeFile(outside, 'top secret')
    server.setScenario([
      main(textReply('Noted.')),
      main(toolUseReply('Read', { file_path: outside })),
      main(toolUseReply('Bash', { command: 'echo hi > x' })),
      answer([{ ...pnpm, file: '../../../escape.md', name: 'Escape' }]),
    ])
    const { sessionId } = await runtime.sessions.create(project)
    await runtime.sessions.run(sessionId, 'Always use pnpm.')
    await runtime.sessions.idle(sessionId)
    expect(server.failures).toEqual([])
    const results = JSON.stringify(mainRequests().slice(2).map((request) => (request.body['messages'] as Message[]).at(-1)))
    expect(results).toContain('only the memory folders may be read')
    expect(results).not.toContain('top secret')
    expect(await readdir(project)).toEqual(['README.md'])
    // The unknown file name was only looked up: the memory is created under its own name.
    expect(await readdir(await projectFolder())).toEqual(['MEMORY.md', 'feedback_escape.md'])
  })
})

function stripMarks(messages: Message[]): unknown {
  return JSON.parse(JSON.stringify(messages).replace(/,"cache_control":\{"type":"ephemeral"\}/g, ''))
}

function breakpoints(body: Record<string, unknown>): number[] {
  return flattenPrompt(body).flatMap((block, index) => (block.breakpoint ? [index] : []))
}
