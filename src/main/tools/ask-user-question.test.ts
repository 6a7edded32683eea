import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { textReply, toolUseReply } from '../../../test/model-server'
import { useModelServer } from '../../../test/model-server/vitest'
import { baseParams, runQuery, scriptedModel } from '../../../test/support/engine'
import { events as eventSchemas, requests } from '../../shared/ipc/contract'
import { createEventHub } from '../base/event-hub'
import { chooseAnswerer } from '../governance/approvals/answerer'
import { DenialLog } from '../governance/approvals/denials'
import { ApprovalQueue } from '../governance/approvals/queue'
import { ApprovalQueues } from '../governance/approvals/registry'
import { SessionGrants } from '../governance/decide/session'
import { approvalHandlers } from '../host/handlers/approval'
import { questionsThrough } from '../runtime/questions'
import type { ToolResultBlock } from '../services/model/types'
import { askUserQuestionTool, NO_ONE_TO_ASK } from './ask-user-question'

// The real loop and SDK against the scripted server; the question goes through the session's real
// approval queue and is answered through the real `approval.reply` handler, as the card does.
const server = useModelServer()
let base: string
let queue: ApprovalQueue
let registry: ApprovalQueues
let requested: Array<{ id: string; preview?: unknown }>

const questions = [
  { question: 'Which library should we use?', header: 'Library', multiSelect: false, options: [{ label: 'dayjs', description: 'small' }, { label: 'luxon', description: 'big' }] },
  { question: 'Which features do you want?', header: 'Features', multiSelect: true, options: [{ label: 'Parsing', description: 'p' }, { label: 'Zones', description: 'z' }, { label: 'Locales', description: 'l' }] },
]

beforeEach(() => {
  base = mkdtempSync(join(tmpdir(), 'sous-ask-'))
  mkdirSync(join(base, 'home'))
  const hub = createEventHub()
  requested = []
  hub.subscribe((channel, payload) => {
    const parsed = eventSchemas[channel].parse(payload)
    if (channel === 'approval.requested') requested.push(parsed as { id: string })
  })
  registry = new ApprovalQueues(hub)
  queue = new ApprovalQueue({ projectRoot: base, sousHome: join(base, 'home'), sessionGrants: new SessionGrants(base) })
  registry.add('session-test', queue)
})

afterEach(() => {
  queue.dispose()
  rmSync(base, { recursive: true, force: true })
})

const resultOf = (index: number) => ((server.requests[index]!.body['messages'] as Array<{ content: unknown }>).at(-1)!.content as ToolResultBlock[])[0]!

async function answerWhenAsked(input: Record<string, unknown>): Promise<void> {
  while (requested.length === 0) await new Promise((resolve) => setTimeout(resolve, 5))
  const parsed = requests['approval.reply'].input.parse({ id: requested[0]!.id, ...input })
  await approvalHandlers(registry)['approval.reply'](parsed, { sender: { transport: 'internal' } })
}

describe('AskUserQuestion', () => {
  it('shows the questions as a card and sends the answers back in Claude Code’s words', async () => {
    server.setScenario([toolUseReply('AskUserQuestion', { questions }), textReply('ok')])
    const run = runQuery(baseParams(scriptedModel(server.url), { tools: [askUserQuestionTool], toolContext: { questions: questionsThrough(queue, 'session-test') } }))
    await answerWhenAsked({ decision: 'allow_once', answers: { 'Which library should we use?': 'dayjs', 'Which features do you want?': 'Parsing, Zones' } })
    const { result } = await run
    expect(result.reason).toBe('completed')
    expect(requested[0]!.preview).toMatchObject({ kind: 'questions', questions })
    expect(resultOf(1).content).toBe('Your questions have been answered: "Which library should we use?"="dayjs", "Which features do you want?"="Parsing, Zones". You can now continue with these answers in mind.')
  })

  it('words an answer in the user’s own words ("Other") so the model reads it carefully; a declined card is an error result', async () => {
    server.setScenario([toolUseReply('AskUserQuestion', { questions: questions.slice(0, 1) }), toolUseReply('AskUserQuestion', { questions: questions.slice(0, 1) }), textReply('ok')])
    const run = runQuery(baseParams(scriptedModel(server.url), { tools: [askUserQuestionTool], toolContext: { questions: questionsThrough(queue, 'session-test') } }))
    await answerWhenAsked({ decision: 'allow_once', answers: { 'Which library should we use?': 'neither, use Temporal' } })
    requested.length = 0
    await answerWhenAsked({ decision: 'reject' })
    await run
    expect(resultOf(1).content).toBe('The user answered: "Which library should we use?"="neither, use Temporal". Read the answers carefully — they may request clarification, changes, or that you not proceed — and follow what they actually say.')
    expect(resultOf(2)).toMatchObject({ is_error: true })
    expect(String(resultOf(2).content)).toContain('declined to answer')
  })

  it('refuses with Claude Code’s message when nobody can answer (the unattended answerer of sous -p)', async () => {
    server.setScenario([toolUseReply('AskUserQuestion', { questions }), textReply('ok')])
    const unattended = chooseAnswerer('unattended', { projectRoot: base, sousHome: join(base, 'home'), sessionGrants: new SessionGrants(base) }, new DenialLog())
    await runQuery(baseParams(scriptedModel(server.url), { tools: [askUserQuestionTool], toolContext: { questions: questionsThrough(unattended.asker, 'session-test') } }))
    expect(resultOf(1)).toMatchObject({ is_error: true, content: NO_ONE_TO_ASK })
    expect(requested).toEqual([])
  })

  it('rejects answers on a card that is not a question card', async () => {
    const pending = queue.request({ sessionId: 'session-test', toolUseId: 't', toolName: 'Bash', input: {}, explanation: { kind: 'default', detail: 'x' }, suggestions: [] })
    await expect(answerWhenAsked({ decision: 'allow_once', answers: { a: 'b' } })).rejects.toThrow('question card')
    await answerWhenAsked({ decision: 'reject' })
    await pending
  })
})
