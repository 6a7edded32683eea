import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { textReply, toolUseReply } from '../../../test/model-server'
import { useModelServer } from '../../../test/model-server/vitest'
import { nextOn, routeByPrompt, useAgentWorld } from '../../../test/support/agents'
import { ROOT } from '../../shared/protocol/agent-tree'

// The tree of a session as the `agents.*` channels serve it: built from the session's transcript
// and its sidechains (so it survives a restart), with what runs now marked live; one agent's
// stored conversation; stopping a node. Real runtime, real SDK against the scripted server.
const server = useModelServer()
const world = useAgentWorld(() => server.url)

/** A user agent type that may start agents of its own (nesting is asked for by name). */
function writeLeadAgent(): void {
  const dir = join(world.userHome, '.claude', 'agents')
  mkdirSync(dir, { recursive: true })
  writeFileSync(join(dir, 'lead.md'), '---\nname: lead\ndescription: Leads a small survey\ntools: Agent, Read\n---\nYou lead surveys.\n')
}

describe('the stored agent tree', () => {
  it('nests agents started by agents, keeps their totals, and is rebuilt the same after a restart', async () => {
    writeLeadAgent()
    server.setScenario(
      [
        routeByPrompt({
          'Run the survey.': [toolUseReply('Agent', { description: 'Lead the survey', prompt: 'Lead the survey now.', subagent_type: 'lead' }, { id: 'toolu_lead' }), textReply('Survey done.')],
          'Lead the survey now.': [toolUseReply('Agent', { description: 'Look at files', prompt: 'Look at the files.', subagent_type: 'Explore' }, { id: 'toolu_explore' }), textReply('Lead done.')],
          'Look at the files.': [textReply('Files seen: README.md.')],
        }),
      ],
      { loop: true },
    )
    const { sessionId } = await world.runtime.sessions.create(world.project)
    const result = await world.runtime.sessions.run(sessionId, 'Run the survey.')
    expect(result.reason).toBe('completed')

    const tree = await world.runtime.sessions.agentTree(sessionId)
    const [leadId] = tree.nodes[ROOT]!.children
    const lead = tree.nodes[leadId!]!
    expect(lead).toMatchObject({ kind: 'agent', label: 'lead', description: 'Lead the survey', state: 'done', toolUseId: 'toolu_lead' })
    const explore = tree.nodes[lead.children[0]!]!
    expect(explore).toMatchObject({ kind: 'agent', label: 'Explore', description: 'Look at files', state: 'done', parentId: leadId })
    expect(explore.tokens).toBeGreaterThan(0)
    expect(tree.nodes[ROOT]!.state).toBe('done')

    await world.restart()
    expect(await world.runtime.sessions.agentTree(sessionId)).toEqual(tree)
    const { events: history, times } = await world.runtime.sessions.agentHistory(sessionId, explore.id)
    expect(times).toHaveLength(history.length)
    expect(times.every((time) => Number.isFinite(time) && time > 0)).toBe(true)
    expect(history.map((event) => event.type)).toEqual(expect.arrayContaining(['agent_start', 'assistant_message', 'agent_end']))
    expect(history.find((event) => event.type === 'assistant_message')).toMatchObject({ text: 'Files seen: README.md.' })
    await expect(world.runtime.sessions.agentHistory(sessionId, 'agent-0000000000000000')).rejects.toMatchObject({ code: 'NOT_FOUND' })
  })

  it('marks a running background agent live; stopping its node stops it, and an unknown node is NOT_FOUND', async () => {
    server.setScenario(
      [
        routeByPrompt({
          'Start the watcher.': [toolUseReply('Agent', { description: 'Watch things', prompt: 'Watch for a long time.', run_in_background: true }, { id: 'toolu_watch' }), textReply('Watching.')],
          'Watch for a long time.': [{ ...textReply('Still watching… '.repeat(100)), chunkSize: 8, delayMs: 200 }],
        }),
      ],
      { loop: true },
    )
    const { sessionId } = await world.runtime.sessions.create(world.project)
    const started = nextOn(world, 'agent.event', (event) => event.type === 'text_delta' && event.parentToolUseId === 'toolu_watch')
    await world.runtime.sessions.run(sessionId, 'Start the watcher.')
    const agentId = (await started).agentId
    const live = await world.runtime.sessions.agentTree(sessionId)
    expect(live.nodes[agentId]).toMatchObject({ state: 'running', background: true })

    const ended = nextOn(world, 'agent.event', (event) => event.type === 'agent_end' && event.agentId === agentId)
    await world.runtime.sessions.stopAgentNode(sessionId, agentId)
    expect(await ended).toMatchObject({ status: 'stopped' })
    expect((await world.runtime.sessions.agentTree(sessionId)).nodes[agentId]!.state).toBe('stopped')
    await expect(world.runtime.sessions.stopAgentNode(sessionId, 'agent-ffffffffffffffff')).rejects.toMatchObject({ code: 'NOT_FOUND' })
  })
})
