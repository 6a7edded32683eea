import { existsSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { textReply, toolUseReply } from '../../../test/model-server'
import { useModelServer } from '../../../test/model-server/vitest'
import { nextOn, promptOf, resultOf, routeByPrompt, systemOf, toolNamesOf, useAgentWorld } from '../../../test/support/agents'
import type { Message } from '../services/model/types'
import { transcriptPath } from '../store/transcript'
import { loadSidechains, sidechainPath } from './sidechain'

// Subagents end to end: the session runtime every host uses, the real model service against the
// scripted server, real tools, the real permission gate. What each subagent's requests carry (its
// prompt, its tools) is read from what the server recorded.
const server = useModelServer()
const world = useAgentWorld(() => server.url)

describe('the Agent tool', () => {
  it('runs an Explore agent with its own prompt and read-only tools, and returns only its final text', async () => {
    server.setScenario(
      [
        routeByPrompt({
          'Where is the readme?': [
            toolUseReply('Agent', { description: 'Find the readme', prompt: 'Find the README file.', subagent_type: 'Explore' }, { id: 'toolu_agent' }),
            textReply('It is README.md.'),
          ],
          'Find the README file.': [toolUseReply('Read', { file_path: join(world.project, 'README.md') }, { id: 'toolu_read' }), textReply('Found: README.md at the root.')],
        }),
      ],
      { loop: true },
    )
    writeFileSync(join(world.project, 'CLAUDE.md'), 'Project rule: MARKER-CLAUDE-MD\n')
    const { sessionId } = await world.runtime.sessions.create(world.project)
    const result = await world.runtime.sessions.run(sessionId, 'Where is the readme?')
    expect(result.reason).toBe('completed')
    const sub = server.requests.filter((request) => promptOf(request) === 'Find the README file.')
    expect(sub).toHaveLength(2)
    expect(systemOf(sub[0]!)).toContain('file search specialist')
    // Explore's lean prompt: no CLAUDE.md, no git line; the main agent's has the CLAUDE.md.
    expect(systemOf(sub[0]!)).not.toContain('MARKER-CLAUDE-MD')
    expect(systemOf(server.requests[0]!)).toContain('MARKER-CLAUDE-MD')
    expect(toolNamesOf(sub[0]!)).toEqual(['Bash', 'Read', 'Glob', 'Grep', 'WebFetch', 'TaskOutput'])
    // Only the final text reaches the main agent; usage and duration are in the event's details.
    const toolResult = resultOf(result.messages, 'toolu_agent')
    expect(toolResult?.content).toBe('Found: README.md at the root.')
    expect(toolResult?.is_error).toBeUndefined()
    const end = world.events.find((event) => event.type === 'tool_end' && event.toolUseId === 'toolu_agent')
    expect(end).toMatchObject({ type: 'tool_end', details: { agentType: 'Explore', status: 'completed', turns: 2, usage: { outputTokens: expect.any(Number) } } })
    // Its events carry its id and the Agent call that started it; the main chat's do not.
    const started = world.events.find((event) => event.type === 'agent_start')
    expect(started).toMatchObject({ parentToolUseId: 'toolu_agent', parentAgentId: 'main', agentType: 'Explore', description: 'Find the readme', background: false })
    const agentId = started!.agentId
    expect(world.events.filter((event) => event.agentId === agentId).map((event) => event.type)).toEqual(expect.arrayContaining(['agent_start', 'tool_state', 'tool_end', 'usage', 'turn_end', 'agent_end']))
    expect(world.events.filter((event) => event.agentId === agentId).every((event) => event.parentToolUseId === 'toolu_agent')).toBe(true)
    // Its history is on disk beside the session's.
    const file = sidechainPath(transcriptPath(world.home, world.project, sessionId), agentId)
    expect(existsSync(file)).toBe(true)
    const [stored] = await loadSidechains(transcriptPath(world.home, world.project, sessionId))
    expect(stored?.agentId).toBe(agentId)
    expect(stored?.transcript.messages.map((message) => message.role)).toEqual(['user', 'assistant', 'user', 'assistant'])
  })

  it('says which types exist when the type is unknown', async () => {
    server.setScenario([
      toolUseReply('Agent', { description: 'Do it', prompt: 'Go.', subagent_type: 'nope' }, { id: 'toolu_agent' }),
      textReply('Sorry.'),
    ])
    const { sessionId } = await world.runtime.sessions.create(world.project)
    const result = await world.runtime.sessions.run(sessionId, 'Start one.')
    const toolResult = resultOf(result.messages, 'toolu_agent')
    expect(toolResult?.is_error).toBe(true)
    expect(toolResult?.content).toMatch(/no agent type "nope".*general-purpose, Explore, Plan/)
  })

  it('names the subagent in the approvals it bubbles up, and its rejection reaches it', async () => {
    server.setScenario(
      [
        routeByPrompt({
          'Write the notes.': [toolUseReply('Agent', { description: 'Write notes', prompt: 'Create notes.txt.' }, { id: 'toolu_agent' }), textReply('Done.')],
          'Create notes.txt.': [toolUseReply('Write', { file_path: join(world.project, 'notes.txt'), content: 'hi\n' }, { id: 'toolu_write' }), textReply('I was not allowed to write.')],
        }),
      ],
      { loop: true },
    )
    const { sessionId } = await world.runtime.sessions.create(world.project)
    const asked = nextOn(world, 'approval.requested')
    const turn = world.runtime.sessions.run(sessionId, 'Write the notes.')
    const request = await asked
    expect(request).toMatchObject({ sessionId, toolName: 'Write', toolUseId: 'toolu_write', agent: { type: 'general-purpose', description: 'Write notes' } })
    const queue = [...world.runtime.approvals.queues()].find((entry) => entry.sessionId === sessionId)!.queue
    queue.resolve(request.id, { kind: 'reject', message: 'not now' })
    const result = await turn
    expect(result.reason).toBe('completed')
    expect(resultOf(result.messages, 'toolu_agent')?.content).toBe('I was not allowed to write.')
    const told = server.requests.filter((request) => promptOf(request) === 'Create notes.txt.').at(-1)!.body['messages'] as Message[]
    expect(resultOf(told, 'toolu_write')).toMatchObject({ is_error: true, content: expect.stringContaining('not now') })
    expect(existsSync(join(world.project, 'notes.txt'))).toBe(false)
  })
})
