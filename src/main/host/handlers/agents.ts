import { homedir } from 'node:os'
import { resolve } from 'node:path'
import { AppError } from '../../../shared/ipc/result'
import { loadAgentCatalog } from '../../agents/agent-files'
import { readProjectConfig } from '../../governance/trust/project-config'
import { isPartTrusted } from '../../governance/trust/trust'
import type { SessionService } from '../../session/types'
import { TeamMailboxes } from '../../store/teams/mailbox'
import { kindOf } from '../../store/teams/messages'
import { teamDir, teamsDir } from '../../store/teams/team-paths'
import type { Handlers } from '../router'

type AgentsChannels = 'agents.tree' | 'agents.history' | 'agents.stop' | 'agents.definitions' | 'agents.teamMailbox'

/**
 * Handlers of the `agents.*` channels: the tree of a session (the session service rebuilds it
 * from transcripts and marks what runs), one agent's stored events, stopping a node, and the
 * agent types a project offers, and a team member's mailbox as its file holds it. Without a session service the session channels answer UNAVAILABLE.
 */
export function agentsHandlers(deps: { sessions?: SessionService; sousHome: string; userHome?: string; env?: NodeJS.ProcessEnv }): Pick<Handlers, AgentsChannels> {
  const service = (): SessionService => {
    if (!deps.sessions) throw new AppError('UNAVAILABLE', 'Agents are not available in this build.')
    return deps.sessions
  }
  return {
    'agents.tree': ({ sessionId }) => service().agentTree(sessionId),
    'agents.history': ({ sessionId, agentId }) => service().agentHistory(sessionId, agentId),
    'agents.teamMailbox': async ({ team, member }) => {
      // The names are plain file names (the contract's pattern), so the path stays inside the teams folder.
      const mailboxes = new TeamMailboxes(teamDir(teamsDir(deps.userHome ?? homedir(), deps.env ?? process.env), team))
      return { messages: (await mailboxes.read(member)).map((message) => ({ ...message, kind: kindOf(message) })) }
    },
    'agents.stop': ({ sessionId, nodeId }) => service().stopAgentNode(sessionId, nodeId),
    'agents.definitions': async ({ projectPath }) => {
      const projectRoot = resolve(projectPath)
      const projectTrusted = isPartTrusted(projectRoot, deps.sousHome, 'extensions', readProjectConfig(projectRoot).fingerprints.extensions)
      const catalog = await loadAgentCatalog({ projectRoot, userHome: deps.userHome ?? homedir(), projectTrusted })
      return {
        agents: catalog.agents.map((agent) => ({ name: agent.name, description: agent.description, source: agent.source, ...(agent.file !== undefined && { file: agent.file }) })),
        problems: catalog.problems,
      }
    },
  }
}
