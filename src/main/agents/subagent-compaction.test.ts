import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { promptTooLong, textReply, toolUseReply, type RecordedRequest, type Step } from '../../../test/model-server'
import { useModelServer } from '../../../test/model-server/vitest'
import { promptOf, resultOf, routeByPrompt, useAgentWorld, type Routes } from '../../../test/support/agents'
import { isSummaryRequest, messagesOf, summaryReply } from '../../../test/support/compaction'
import { grantTrust, trustStatus } from '../governance/trust/trust'
import { loadSidechain, sidechainPath } from './sidechain'
import { transcriptPath } from '../store/transcript'

// A subagent compacts its own conversation as the main agent does: the same layers, a summary
// request when it crosses the auto-compact threshold, reactive compaction when the API says the
// prompt is too long, its sidechain kept whole with a boundary, PreCompact/PostCompact naming it.
const server = useModelServer()
const world = useAgentWorld(() => server.url)

/** The routes, with every summary request answered by `summary` (a summary copies the agent's conversation, so it would match its route). */
function scenario(routes: Routes, summary: string): Step {
  const routed = routeByPrompt(routes)
  return (request: RecordedRequest) => (isSummaryRequest(request) ? summaryReply(summary) : typeof routed === 'function' ? routed(request) : routed)
}

/** Project PreCompact and PostCompact hooks that save their input, trusted as the user would. */
function compactHooks(): void {
  const script = (name: string) => {
    const path = join(world.base, `${name}.sh`)
    writeFileSync(path, `#!/bin/sh\ncat > ${join(world.base, `${name}.json`)}\n`)
    chmodSync(path, 0o755)
    return path
  }
  mkdirSync(join(world.project, '.claude'), { recursive: true })
  const hooks = { PreCompact: [{ hooks: [{ type: 'command', command: script('pre') }] }], PostCompact: [{ hooks: [{ type: 'command', command: script('post') }] }] }
  writeFileSync(join(world.project, '.claude', 'settings.json'), JSON.stringify({ hooks }))
  expect(grantTrust(world.project, world.home, trustStatus(world.project, world.home).fingerprint).ok).toBe(true)
}

describe('subagent compaction', () => {
  it('a subagent past the auto-compact threshold summarizes, goes on from the summary with what it read restored, and keeps its whole history on disk', async () => {
    compactHooks()
    writeFileSync(join(world.project, 'notes.md'), 'NOTES-CONTENT: the API lives under /v2.\n')
    server.setScenario(
      [
        scenario(
          {
            'PLEASE-DELEGATE': [toolUseReply('Agent', { description: 'Read the notes', prompt: 'SUB-TASK: read the notes.', subagent_type: 'general-purpose' }, { id: 'toolu_agent' }), textReply('Delegated.')],
            // The API says this request was nearly the whole window: the next one crosses the threshold.
            // The subagent's script: its prompt, then (after the summary) its summary's text.
            'SUB-': [
              toolUseReply('Read', { file_path: join(world.project, 'notes.md') }, { id: 'toolu_read' }),
              toolUseReply('Glob', { pattern: '*.md' }, { id: 'toolu_glob', usage: { input_tokens: 170_000 } }),
              textReply('SUB-RESULT: /v2.'),
            ],
          },
          'SUB-SUMMARY: the agent read the notes.',
        ),
      ],
      { loop: true },
    )
    const { sessionId } = await world.runtime.sessions.create(world.project)
    const result = await world.runtime.sessions.run(sessionId, 'PLEASE-DELEGATE the reading.')
    expect(result.reason).toBe('completed')
    expect(server.failures).toEqual([])

    // The subagent's summary request carries its own conversation, not the main agent's.
    const summaries = server.requests.filter(isSummaryRequest)
    expect(summaries).toHaveLength(1)
    expect(promptOf(summaries[0]!)).toContain('SUB-TASK')
    expect(JSON.stringify(messagesOf(summaries[0]!))).not.toContain('PLEASE-DELEGATE')
    // The request that follows starts from the summary, with the file it read restored as it is now
    // (its newest round, the Glob call, is kept as it is).
    const after = server.requests[server.requests.indexOf(summaries[0]!) + 1]!
    const first = JSON.stringify(messagesOf(after)[0])
    expect(first).toContain('SUB-SUMMARY: the agent read the notes.')
    expect(first).toContain('NOTES-CONTENT: the API lives under /v2.')
    expect(resultOf(result.messages, 'toolu_agent')).toMatchObject({ content: 'SUB-RESULT: /v2.' })

    // Its compaction is its own event, stamped with its id and the Agent call; the main agent never compacted.
    const started = world.events.find((event) => event.type === 'agent_start')!
    const compaction = world.events.find((event) => event.type === 'compaction')
    expect(compaction).toMatchObject({ agentId: started.agentId, parentToolUseId: 'toolu_agent', layer: 'auto', status: 'done' })
    expect(world.events.filter((event) => event.type === 'compaction' && event.agentId === 'main')).toEqual([])

    // The hooks fired for it, naming the agent.
    expect(JSON.parse(readFileSync(join(world.base, 'pre.json'), 'utf8'))).toMatchObject({ hook_event_name: 'PreCompact', trigger: 'auto', agent_id: started.agentId, agent_type: 'general-purpose' })
    expect(JSON.parse(readFileSync(join(world.base, 'post.json'), 'utf8'))).toMatchObject({ hook_event_name: 'PostCompact', compact_summary: 'SUB-SUMMARY: the agent read the notes.', agent_id: started.agentId })

    // The sidechain keeps every line before the boundary; loading it gives the compacted conversation.
    const path = sidechainPath(transcriptPath(world.home, world.project, sessionId), started.agentId)
    const lines = readFileSync(path, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as { type: string; why?: string; compaction?: { layer: string } })
    expect(lines.filter((line) => line.type === 'message').length).toBe(6)
    expect(lines.filter((line) => line.type === 'messages_replaced').map((line) => [line.why, line.compaction?.layer])).toEqual([['compaction', 'auto']])
    const stored = await loadSidechain(transcriptPath(world.home, world.project, sessionId), started.agentId)
    expect(JSON.stringify(stored!.messages[0])).toContain('SUB-SUMMARY')
    expect(stored!.messages.at(-1)).toMatchObject({ role: 'assistant' })
  })

  it('a subagent whose request is too long compacts reactively and sends it again', async () => {
    server.setScenario(
      [
        scenario(
          {
            'PLEASE-DELEGATE': [toolUseReply('Agent', { description: 'Read the readme', prompt: 'SUB-TASK: read the readme.', subagent_type: 'general-purpose' }, { id: 'toolu_agent' }), textReply('Delegated.')],
            'SUB-': [toolUseReply('Read', { file_path: join(world.project, 'README.md') }, { id: 'toolu_read', usage: { input_tokens: 150_000 } }), promptTooLong(), textReply('SUB-RESULT: a readme.')],
          },
          'SUB-SUMMARY: the agent read the readme.',
        ),
      ],
      { loop: true },
    )
    const { sessionId } = await world.runtime.sessions.create(world.project)
    const result = await world.runtime.sessions.run(sessionId, 'PLEASE-DELEGATE the reading.')
    expect(result.reason).toBe('completed')
    expect(server.failures).toEqual([])
    const sub = server.requests.filter((request) => !promptOf(request).includes('PLEASE-DELEGATE'))
    // Its first request, the one refused, the summary, and the same request again, now from the summary.
    expect(sub.map(isSummaryRequest)).toEqual([false, false, true, false])
    expect(JSON.stringify(messagesOf(sub[3]!)[0])).toContain('SUB-SUMMARY: the agent read the readme.')
    const started = world.events.find((event) => event.type === 'agent_start')!
    // At 150k of 200k collapse had its chance first (stubs, below the summary's point); the API still refused.
    const layers = world.events.flatMap((event) => (event.type === 'compaction' ? [event.layer] : []))
    expect(layers).toEqual(['collapse', 'reactive'])
    expect(world.events.find((event) => event.type === 'compaction' && event.layer === 'reactive')).toMatchObject({ agentId: started.agentId, status: 'done' })
    expect(world.events.find((event) => event.type === 'notice' && event.agentId === started.agentId && event.message.includes('too long'))).toBeDefined()
    expect(resultOf(result.messages, 'toolu_agent')).toMatchObject({ content: 'SUB-RESULT: a readme.' })
    expect(world.events.find((event) => event.type === 'agent_end')).toMatchObject({ status: 'completed' })
  })
})
