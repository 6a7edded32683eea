import { describe, expect, it } from 'vitest'
import type { AgentEvent } from '../../../../shared/protocol/agent-event'
import { emptyTree, foldTree } from '../../../../shared/protocol/agent-tree'
import { teamsOf } from './team-lanes'

const sessionId = 's1'
const start = (agentId: string, member: string, color: string, at: number): AgentEvent => ({ type: 'agent_start', sessionId, agentId, parentAgentId: 'main', agentType: 'general-purpose', description: member, prompt: 'p', model: 'm', background: true, team: { name: 'crew', member, color }, at })
const message = (from: string, to: string, summary: string, at: number): AgentEvent => ({ type: 'team_message', sessionId, agentId: 'main', team: 'crew', from, to, kind: 'message', summary, text: summary, at })

describe('team lanes', () => {
  it('a lane for the lead and each teammate in joining order, each with its mailbox; the messages between them in order', () => {
    let tree = emptyTree(sessionId)
    for (const event of [start('agent-b', 'bob', 'green', 2), start('agent-a', 'alice', 'blue', 1), message('team-lead', 'alice', 'start on the parser', 3), message('alice', 'team-lead', 'parser done', 4), message('bob', 'alice', 'need your tests', 5)]) tree = foldTree(tree, event)
    // A message folded again (a view catching up) is kept once.
    tree = foldTree(tree, message('bob', 'alice', 'need your tests', 5))
    const [team] = teamsOf(tree)
    expect(team!.name).toBe('crew')
    expect(team!.lanes.map((lane) => [lane.name, lane.color, lane.lead])).toEqual([['team-lead', 'gray', true], ['alice', 'blue', false], ['bob', 'green', false]])
    expect(team!.lanes[1]!.mailbox.map((entry) => entry.summary)).toEqual(['start on the parser', 'need your tests'])
    expect(team!.lanes[0]!.mailbox.map((entry) => entry.from)).toEqual(['alice'])
    expect(team!.messages.map((entry) => `${entry.from}>${entry.to}`)).toEqual(['team-lead>alice', 'alice>team-lead', 'bob>alice'])
  })

  it('no team, no lanes', () => {
    expect(teamsOf(emptyTree(sessionId))).toEqual([])
  })
})
