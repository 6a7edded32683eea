import { ROOT, type AgentTree, type TeamMessageEntry, type TreeNode } from '../../../../shared/protocol/agent-tree'

/** One lane of a team: the lead (the main agent) or a teammate, with what reached its mailbox. */
export interface TeamLane {
  name: string
  /** The tree node (`main` for the lead). */
  nodeId: string
  color: string
  state: TreeNode['state']
  lead: boolean
  /** Messages that went into its mailbox, oldest first. */
  mailbox: TeamMessageEntry[]
  /** Messages it sent. */
  sent: number
}

/** One agent team of the session, as lanes and the messages between them. */
export interface TeamView {
  name: string
  lanes: TeamLane[]
  messages: TeamMessageEntry[]
}

/** The name the lead goes by in its team. */
const LEAD = 'team-lead'

/**
 * The session's teams from its tree: a lane for the lead and one per teammate (in the order they
 * joined), each with its mailbox (what was sent to it); the messages between them in order. A
 * team is known from its teammates' nodes or its messages.
 */
export function teamsOf(tree: AgentTree): TeamView[] {
  const names = new Set<string>()
  for (const node of Object.values(tree.nodes)) if (node.team) names.add(node.team.name)
  for (const message of tree.messages ?? []) names.add(message.team)
  return [...names].map((name) => {
    const messages = (tree.messages ?? []).filter((message) => message.team === name)
    const members = Object.values(tree.nodes)
      .filter((node) => node.team?.name === name)
      .sort((a, b) => (a.startedAt ?? 0) - (b.startedAt ?? 0))
    const lane = (member: string, nodeId: string, color: string, state: TreeNode['state'], lead: boolean): TeamLane => ({
      name: member,
      nodeId,
      color,
      state,
      lead,
      mailbox: messages.filter((message) => message.to === member),
      sent: messages.filter((message) => message.from === member).length,
    })
    const root = tree.nodes[ROOT]
    return {
      name,
      lanes: [lane(LEAD, ROOT, 'gray', root?.state ?? 'done', true), ...members.map((node) => lane(node.team!.member, node.id, node.team!.color, node.state, false))],
      messages,
    }
  })
}
