import { describe, expect, it } from 'vitest'
import { textReply, toolUseReply, type RecordedRequest } from '../../../test/model-server'
import { useModelServer } from '../../../test/model-server/vitest'
import { resultOf, routeByPrompt, toolNamesOf, useAgentWorld } from '../../../test/support/agents'
import { isSummaryRequest, summaryReply } from '../../../test/support/compaction'
import type { Message } from '../services/model/types'
import { FORK_TAG } from './fork.prompt'

// A fork copies its parent's last request byte for byte, so its first request reads the parent's
// prefix from the (simulated) prompt cache; its compaction counts from the parent's figure; and it
// can never start agents itself.
const server = useModelServer()
const world = useAgentWorld(() => server.url)

/** A request's body without the cache breakpoints, which move from request to request. */
function bare(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value, (key, inner: unknown) => (key === 'cache_control' ? undefined : inner)))
}

function isFork(request: RecordedRequest): boolean {
  return JSON.stringify(request.body['messages']).includes(FORK_TAG)
}

describe('fork', () => {
  it('starts from the parent request byte for byte and reads at least 90% of its input from the cache', async () => {
    server.setScenario(
      [
        routeByPrompt({
          'Plan the release, then fork a checker.': [
            toolUseReply('Agent', { description: 'Check the changelog', prompt: 'CHECK-CHANGELOG: is the changelog up to date?', subagent_type: 'fork' }, { id: 'toolu_fork', text: 'Forking a checker.' }),
            textReply('The fork reported back.'),
          ],
          'CHECK-CHANGELOG': [textReply('The changelog is up to date.')],
        }),
      ],
      { loop: true },
    )
    const { sessionId } = await world.runtime.sessions.create(world.project)
    const result = await world.runtime.sessions.run(sessionId, 'Plan the release, then fork a checker.')
    expect(result.reason).toBe('completed')
    expect(resultOf(result.messages, 'toolu_fork')?.content).toBe('The changelog is up to date.')
    const parent = server.requests[0]!
    const fork = server.requests.find(isFork)!
    expect(fork).toBeDefined()
    // Same model, same system blocks, same tools in the same order, the parent's messages first.
    expect(fork.model).toBe(parent.model)
    expect(bare(fork.body['system'])).toEqual(bare(parent.body['system']))
    expect(bare(fork.body['tools'])).toEqual(bare(parent.body['tools']))
    const parentMessages = parent.body['messages'] as Message[]
    const forkMessages = fork.body['messages'] as Message[]
    expect(bare(forkMessages.slice(0, parentMessages.length))).toEqual(bare(parentMessages))
    expect(forkMessages[parentMessages.length]).toMatchObject({ role: 'assistant', content: [{ type: 'text', text: 'Forking a checker.' }, { type: 'tool_use', id: 'toolu_fork' }] })
    // The fork is told its copy may be stale: the parent (and others) go on changing files.
    expect(JSON.stringify(forkMessages.at(-1))).toContain('Files may have changed since the split')
    const usage = fork.simulatedUsage
    const input = usage.input_tokens + usage.cache_creation_input_tokens + usage.cache_read_input_tokens
    expect(usage.cache_read_input_tokens / input).toBeGreaterThanOrEqual(0.9)
    expect(world.events.find((event) => event.type === 'agent_start')).toMatchObject({ agentType: 'fork', parentToolUseId: 'toolu_fork' })
  })

  it('cannot fork, nor start any agent: a hard check, whatever the model asks', async () => {
    server.setScenario(
      [
        routeByPrompt({
          'Fork once.': [toolUseReply('Agent', { description: 'Fork', prompt: 'FORK-DIRECTIVE: try to fork again.', subagent_type: 'fork' }, { id: 'toolu_fork' }), textReply('Done.')],
          'FORK-DIRECTIVE': [
            {
              reply: {
                content: [
                  { type: 'tool_use', id: 'toolu_again', name: 'Agent', input: { description: 'Again', prompt: 'Nested fork.', subagent_type: 'fork' } },
                  { type: 'tool_use', id: 'toolu_other', name: 'Agent', input: { description: 'Other', prompt: 'A helper.', subagent_type: 'Explore' } },
                ],
              },
            },
            textReply('I could not start agents.'),
          ],
        }),
      ],
      { loop: true },
    )
    const { sessionId } = await world.runtime.sessions.create(world.project)
    const result = await world.runtime.sessions.run(sessionId, 'Fork once.')
    expect(result.reason).toBe('completed')
    const forkRequests = server.requests.filter(isFork)
    expect(forkRequests).toHaveLength(2)
    // The fork keeps the Agent tool in its list (the cache needs the same tools), but every call is refused.
    expect(toolNamesOf(forkRequests[0]!)).toContain('Agent')
    const told = forkRequests[1]!.body['messages'] as Message[]
    expect(resultOf(told, 'toolu_again')).toMatchObject({ is_error: true, content: expect.stringContaining('A fork cannot start agents') })
    expect(resultOf(told, 'toolu_other')).toMatchObject({ is_error: true, content: expect.stringContaining('A fork cannot start agents') })
    expect(world.events.filter((event) => event.type === 'agent_start')).toHaveLength(1)
  })

  it('judges its thresholds from its parent’s counted request: past auto-compact, it summarizes before its first request', async () => {
    const routed = routeByPrompt({
      // The API counted the parent's request at 170k tokens: the fork's copy is past the threshold too.
      'PLAN-COUNTED': [toolUseReply('Agent', { description: 'Check it', prompt: 'FORK-COUNTED: check the changelog.', subagent_type: 'fork' }, { id: 'toolu_fork', usage: { input_tokens: 170_000 } }), textReply('Reported.')],
      'FORK-COUNTED': [textReply('Checked.')],
    })
    // Each summary names its conversation's route, so the request after it finds its script.
    const step = (request: RecordedRequest) =>
      isSummaryRequest(request) ? summaryReply(isFork(request) ? 'FORK-COUNTED summary.' : 'PLAN-COUNTED summary.') : typeof routed === 'function' ? routed(request) : routed
    server.setScenario([step], { loop: true })
    const { sessionId } = await world.runtime.sessions.create(world.project)
    const result = await world.runtime.sessions.run(sessionId, 'PLAN-COUNTED: plan, then fork.')
    expect(result.reason).toBe('completed')
    expect(server.failures).toEqual([])
    // The parent's request, then the fork's summary of its copy, then the fork goes on from it.
    expect(isSummaryRequest(server.requests[1]!) && isFork(server.requests[1]!)).toBe(true)
    expect(JSON.stringify(server.requests[2]!.body['messages'])).toContain('FORK-COUNTED summary.')
    const fork = world.events.find((event) => event.type === 'agent_start')!
    expect(world.events.find((event) => event.type === 'compaction' && event.agentId === fork.agentId)).toMatchObject({ layer: 'auto', status: 'done' })
    expect(resultOf(result.messages, 'toolu_fork')?.content).toBe('Checked.')
  })
})
