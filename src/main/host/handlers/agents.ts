import { homedir } from 'node:os'
import { resolve } from 'node:path'
import { AppError } from '../../../shared/ipc/result'
import { loadAgentCatalog } from '../../agents/agent-files'
import { readProjectConfig } from '../../governance/trust/project-config'
import { isPartTrusted } from '../../governance/trust/trust'
import type { SessionService } from '../../session/types'
import type { Handlers } from '../router'

type AgentsChannels = 'agents.tree' | 'agents.history' | 'agents.stop' | 'agents.definitions'

/**
 * Handlers of the `agents.*` channels: the tree of a session (the session service rebuilds it
 * from transcripts and marks what runs), one agent's stored events, stopping a node, and the
 * agent types a project offers. Without a session service the session channels answer UNAVAILABLE.
 */
export function agentsHandlers(deps: { sessions?: SessionService; sousHome: string; userHome?: string }): Pick<Handlers, AgentsChannels> {
  const service = (): SessionService => {
    if (!deps.sessions) throw new AppError('UNAVAILABLE', 'Agents are not available in this build.')
    return deps.sessions
  }
  return {
    'agents.tree': ({ sessionId }) => service().agentTree(sessionId),
    'agents.history': ({ sessionId, agentId }) => service().agentHistory(sessionId, agentId),
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
