import { z } from 'zod'
import { AgentEvent } from '../protocol/agent-event'
import { AgentTree } from '../protocol/agent-tree'
import { AbsPath, Id } from './common'

/** An agent type as the settings view lists it. */
export const AgentTypeInfo = z.object({
  name: z.string(),
  description: z.string(),
  source: z.enum(['built-in', 'user', 'project']),
  file: z.string().optional(),
})
export type AgentTypeInfo = z.infer<typeof AgentTypeInfo>

/** An agent file that could not be loaded, or a field that was ignored. */
export const AgentFileProblem = z.object({ file: z.string(), level: z.enum(['error', 'warning']), message: z.string() })
export type AgentFileProblem = z.infer<typeof AgentFileProblem>

/** `agents.*`: the tree of everything working in a session, and the agent types a project offers. */
export const agentsRequests = {
  /**
   * What one team member's mailbox file holds now (`teams/<team>/inboxes/<member>.json` in Claude
   * Code's home), read from disk: the lanes show it even for messages no event of this page saw.
   * Names are plain file names (letters, digits, `-`, `_`); a damaged file reads as what was valid.
   */
  'agents.teamMailbox': {
    input: z.object({ team: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/u), member: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/u) }).strict(),
    output: z.object({ messages: z.array(z.object({ from: z.string(), text: z.string(), timestamp: z.string(), read: z.boolean().optional(), color: z.string().optional(), summary: z.string().optional(), kind: z.string() })) }),
  },
  /**
   * The session's tree as it stands: rebuilt from its transcripts, with what runs in this process
   * marked live (a session no one has open shows what was running as stopped). The UI keeps it
   * live from `agent.event`s with the same fold (`shared/protocol/agent-tree.ts`).
   */
  'agents.tree': { input: z.object({ sessionId: Id }).strict(), output: AgentTree },
  /** One agent's stored events (`main`: the session's own), to open its conversation read-only. */
  'agents.history': { input: z.object({ sessionId: Id, agentId: Id }).strict(), output: z.object({ events: z.array(AgentEvent), times: z.array(z.number()).optional() }) },
  /**
   * Stops a node and what is below it: `main` stops the turn and every subagent; a subagent stops
   * with the agents it started; a background command is ended. NOT_FOUND when nothing like it runs.
   */
  'agents.stop': { input: z.object({ sessionId: Id, nodeId: z.string().min(1).max(300) }).strict(), output: z.void() },
  /** The agent types a project offers (built-in, the user's, the project's once trusted) and the files that could not be used. */
  'agents.definitions': {
    input: z.object({ projectPath: AbsPath }).strict(),
    output: z.object({ agents: z.array(AgentTypeInfo), problems: z.array(AgentFileProblem) }),
  },
} as const
