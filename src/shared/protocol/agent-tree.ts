// Longer than 300 lines because the fold is one switch over the event union whose cases share the
// small tree helpers (add, update, remove); splitting it would scatter one pure function.
import { z } from 'zod'
import type { AgentEvent, Usage } from './agent-event'

/**
 * The live tree of everything working in one session: the main agent at the root, the subagents
 * it started (nested to any depth), their background commands, and the items of the task list.
 * It is a pure fold over the session's `AgentEvent`s ({@link foldTree}), so the main process
 * rebuilds it from transcripts and the renderer keeps it live from the same events with the same
 * code. "Waiting for approval" is not in the fold: it comes from the pending approvals
 * (`approval.requested` names the agent), which the views join in.
 */

/** Where a node is in its life. */
export const TreeNodeState = z.enum(['queued', 'running', 'done', 'failed', 'stopped'])
export type TreeNodeState = z.infer<typeof TreeNodeState>

/** One node of the tree. */
export const TreeNode = z.object({
  /** `main`, a subagent's id, `<agent>/shell/<id>`, `task/<list>/<id>`, or `call/<toolUseId>` (an Agent call not started yet). */
  id: z.string(),
  kind: z.enum(['main', 'agent', 'shell', 'task']),
  parentId: z.string().optional(),
  /** Child ids, oldest first. */
  children: z.array(z.string()),
  /** The type: `Main agent`, the agent type, `Shell`, `Task #3`. */
  label: z.string(),
  /** What it is doing as a whole: the agent's description, the command, the task's subject. */
  description: z.string(),
  state: TreeNodeState,
  /** A subagent running in the background (started so, or moved there). */
  background: z.boolean().optional(),
  /** Wall-clock times, in ms since the epoch. */
  startedAt: z.number().optional(),
  endedAt: z.number().optional(),
  /** This node's own tokens (input, cache and output) and cost; views add the children's. */
  tokens: z.number(),
  costUsd: z.number(),
  /** What it is doing right now ("Bash npm test"), and the tool call that is. */
  activity: z.string().optional(),
  activityId: z.string().optional(),
  /** The Agent call that started a subagent. */
  toolUseId: z.string().optional(),
  model: z.string().optional(),
  /** Why it failed or stopped, in one line. */
  message: z.string().optional(),
  /** A teammate of an agent team: the team, its name there, its colour. */
  team: z.object({ name: z.string(), member: z.string(), color: z.string() }).optional(),
})
export type TreeNode = z.infer<typeof TreeNode>

/** A message between members of an agent team (the `team_message` events, oldest first). */
export const TeamMessageEntry = z.object({ team: z.string(), from: z.string(), to: z.string(), kind: z.string(), summary: z.string(), text: z.string(), at: z.number() })
export type TeamMessageEntry = z.infer<typeof TeamMessageEntry>

/** How many team messages a tree keeps (the newest). */
export const TEAM_MESSAGES_KEPT = 500

/** The whole tree of one session; `nodes.main` is the root; `messages` what its team members sent each other. */
export const AgentTree = z.object({ sessionId: z.string(), nodes: z.record(z.string(), TreeNode), messages: z.array(TeamMessageEntry).optional() })
export type AgentTree = z.infer<typeof AgentTree>

/** The root's id. */
export const ROOT = 'main'

/** A tree holding only the main agent, idle. */
export function emptyTree(sessionId: string): AgentTree {
  return { sessionId, nodes: { [ROOT]: { id: ROOT, kind: 'main', children: [], label: 'Main agent', description: 'The conversation', state: 'done', tokens: 0, costUsd: 0 } } }
}

/** A shell node's id (shell ids are per agent: every agent has its own `bash_1`). */
export function shellNodeId(agentId: string, shellId: string): string {
  return `${agentId}/shell/${shellId}`
}

/** A task node's id. */
export function taskNodeId(listId: string, taskId: string): string {
  return `task/${listId}/${taskId}`
}

/** The placeholder of an Agent call whose subagent has not started. */
export function callNodeId(toolUseId: string): string {
  return `call/${toolUseId}`
}

/**
 * Folds one event into the tree. Pure: returns the same tree when the event changes nothing
 * (text deltas, most of the stream), else a new one sharing the unchanged nodes.
 */
export function foldTree(tree: AgentTree, event: AgentEvent): AgentTree {
  switch (event.type) {
    case 'turn_start':
      return event.agentId === ROOT ? update(tree, ROOT, (node) => ({ ...node, state: 'running', message: undefined })) : tree
    case 'turn_end':
      if (event.agentId !== ROOT) return tree
      return update(tree, ROOT, (node) => ({ ...node, state: event.reason === 'completed' ? 'done' : event.reason === 'aborted' ? 'stopped' : 'failed', message: event.message, activity: undefined, activityId: undefined }))
    case 'usage':
      return update(tree, event.agentId, (node) => ({ ...node, tokens: tokensOf(event.total), costUsd: event.costUsd, model: event.model }))
    case 'tool_state':
      return onToolState(tree, event)
    case 'tool_end':
      return onToolEnd(tree, event)
    case 'agent_start':
      return onAgentStart(tree, event)
    case 'agent_background':
      return update(tree, event.agentId, (node) => ({ ...node, background: true }))
    case 'agent_end':
      return update(tree, event.agentId, (node) => ({
        ...node,
        state: event.status === 'completed' ? 'done' : event.status,
        endedAt: event.at,
        tokens: tokensOf(event.usage),
        costUsd: event.costUsd,
        activity: undefined,
        activityId: undefined,
        message: event.message,
      }))
    case 'shell_start':
      return add(tree, event.agentId, { id: shellNodeId(event.agentId, event.shellId), kind: 'shell', children: [], label: 'Shell', description: event.command, state: 'running', startedAt: event.at, tokens: 0, costUsd: 0 })
    case 'shell_end':
      return update(tree, shellNodeId(event.agentId, event.shellId), (node) => ({
        ...node,
        state: event.status === 'completed' ? 'done' : event.status === 'failed' ? 'failed' : 'stopped',
        endedAt: event.at,
        ...(event.status === 'failed' && { message: `exit code ${event.exitCode ?? 'unknown'}` }),
      }))
    case 'task_update':
      return onTaskUpdate(tree, event)
    case 'team_message': {
      const entry: TeamMessageEntry = { team: event.team, from: event.from, to: event.to, kind: event.kind, summary: event.summary, text: event.text, at: event.at }
      // Folded twice (a view folds what arrived while it loaded the host's tree): kept once.
      if (tree.messages?.some((known) => known.at === entry.at && known.from === entry.from && known.to === entry.to && known.text === entry.text)) return tree
      return { ...tree, messages: [...(tree.messages ?? []), entry].slice(-TEAM_MESSAGES_KEPT) }
    }
    default:
      return tree
  }
}

/**
 * Every node still queued or running that is not `live` (and not the idle root) becomes stopped:
 * a tree rebuilt from transcripts after Sous stopped, where nothing kept running. Task items are
 * left as the task list says (a task in progress stays in progress: it is a plan, not a process).
 */
export function settleInterrupted(tree: AgentTree, live: ReadonlySet<string>, at: number): AgentTree {
  let out = tree
  for (const node of Object.values(tree.nodes)) {
    if ((node.state !== 'running' && node.state !== 'queued') || live.has(node.id) || node.kind === 'task') continue
    out = update(out, node.id, (current) => ({ ...current, state: 'stopped', activity: undefined, activityId: undefined, message: current.message ?? 'Interrupted: Sous stopped while it ran.', ...(current.kind !== 'main' && { endedAt: current.endedAt ?? at }) }))
  }
  return out
}

/** A node and everything below it, the node first (depth first). */
export function subtree(tree: AgentTree, id: string): TreeNode[] {
  const out: TreeNode[] = []
  const stack = [id]
  while (stack.length > 0) {
    const node = tree.nodes[stack.pop()!]
    if (!node) continue
    out.push(node)
    for (let index = node.children.length - 1; index >= 0; index--) stack.push(node.children[index]!)
  }
  return out
}

/** Tokens and cost of every node with its descendants' added (one pass; children before parents). */
export function rollUp(tree: AgentTree): Map<string, { tokens: number; costUsd: number }> {
  const totals = new Map<string, { tokens: number; costUsd: number }>()
  const order = subtree(tree, ROOT)
  for (let index = order.length - 1; index >= 0; index--) {
    const node = order[index]!
    let tokens = node.tokens
    let costUsd = node.costUsd
    for (const child of node.children) {
      const sum = totals.get(child)
      if (sum) {
        tokens += sum.tokens
        costUsd += sum.costUsd
      }
    }
    totals.set(node.id, { tokens, costUsd })
  }
  return totals
}

function tokensOf(usage: Usage): number {
  return usage.inputTokens + usage.outputTokens + usage.cacheReadTokens + usage.cacheWriteTokens
}

function onToolState(tree: AgentTree, event: Extract<AgentEvent, { type: 'tool_state' }>): AgentTree {
  let out = tree
  // Events can be folded again over a tree that has them (a view folds what arrived while it loaded
  // the host's tree): a call whose agent already started gets no placeholder.
  if (event.name === 'Agent' && event.state === 'pending' && !tree.nodes[callNodeId(event.toolUseId)] && !startedBy(tree, event.toolUseId)) {
    const input = (event.input ?? {}) as { subagent_type?: unknown; description?: unknown }
    out = add(out, event.agentId, {
      id: callNodeId(event.toolUseId),
      kind: 'agent',
      children: [],
      label: typeof input.subagent_type === 'string' && input.subagent_type ? input.subagent_type : 'general-purpose',
      description: typeof input.description === 'string' ? input.description : '',
      state: 'queued',
      tokens: 0,
      costUsd: 0,
      toolUseId: event.toolUseId,
    })
  }
  if (event.state === 'pending' || event.state === 'running') {
    return update(out, event.agentId, (node) => {
      const activity = event.summary !== undefined ? event.summary : node.activityId === event.toolUseId ? node.activity : event.name
      return node.activityId === event.toolUseId && node.activity === activity ? node : { ...node, activity, activityId: event.toolUseId }
    })
  }
  return clearActivity(out, event.agentId, event.toolUseId)
}

/** Whether an agent started by this Agent call is in the tree. */
function startedBy(tree: AgentTree, toolUseId: string): boolean {
  for (const node of Object.values(tree.nodes)) if (node.kind === 'agent' && node.toolUseId === toolUseId && !node.id.startsWith('call/')) return true
  return false
}

function onToolEnd(tree: AgentTree, event: Extract<AgentEvent, { type: 'tool_end' }>): AgentTree {
  let out = clearActivity(tree, event.agentId, event.toolUseId)
  const call = out.nodes[callNodeId(event.toolUseId)]
  // An Agent call that ended without its subagent ever starting: refused, invalid, or stopped early.
  if (call && call.state === 'queued') out = update(out, call.id, (node) => ({ ...node, state: event.isError ? 'failed' : 'done', message: event.content.split('\n')[0]?.slice(0, 300) }))
  return out
}

function onAgentStart(tree: AgentTree, event: Extract<AgentEvent, { type: 'agent_start' }>): AgentTree {
  const existing = tree.nodes[event.agentId]
  if (existing) {
    // Started again (a message sent to it after it ended): same node, running once more.
    return update(tree, event.agentId, (node) => ({ ...node, state: 'running', background: event.background, endedAt: undefined, message: undefined }))
  }
  const node: TreeNode = {
    id: event.agentId,
    kind: 'agent',
    children: [],
    label: event.agentType,
    description: event.description,
    state: 'running',
    background: event.background,
    startedAt: event.at,
    tokens: 0,
    costUsd: 0,
    model: event.model,
    ...(event.parentToolUseId !== undefined && { toolUseId: event.parentToolUseId }),
    ...(event.team && { team: event.team }),
  }
  const placeholder = event.parentToolUseId !== undefined ? tree.nodes[callNodeId(event.parentToolUseId)] : undefined
  if (!placeholder) return add(tree, event.parentAgentId, node)
  // The queued call becomes the running agent, in the same place among its siblings.
  const parentId = placeholder.parentId ?? ROOT
  const nodes = { ...tree.nodes }
  delete nodes[placeholder.id]
  nodes[node.id] = { ...node, parentId, children: placeholder.children }
  const parent = nodes[parentId]
  if (parent) nodes[parentId] = { ...parent, children: parent.children.map((child) => (child === placeholder.id ? node.id : child)) }
  return { ...tree, nodes }
}

function onTaskUpdate(tree: AgentTree, event: Extract<AgentEvent, { type: 'task_update' }>): AgentTree {
  let out = tree
  for (const id of event.deleted) out = remove(out, taskNodeId(event.listId, id))
  for (const task of event.tasks) {
    const id = taskNodeId(event.listId, task.id)
    const state: TreeNodeState = task.status === 'completed' ? 'done' : task.status === 'in_progress' ? 'running' : 'queued'
    const owner = task.owner !== undefined && out.nodes[task.owner]?.kind === 'agent' ? task.owner : ROOT
    const fields = { label: `Task #${task.id}`, description: task.subject, state, activity: task.status === 'in_progress' ? task.activeForm : undefined }
    const current = out.nodes[id]
    if (current && current.parentId === owner) out = update(out, id, (node) => ({ ...node, ...fields }))
    else {
      if (current) out = remove(out, id)
      out = add(out, owner, { id, kind: 'task', children: [], tokens: 0, costUsd: 0, ...fields })
    }
  }
  return out
}

function clearActivity(tree: AgentTree, agentId: string, toolUseId: string): AgentTree {
  const node = tree.nodes[agentId]
  if (!node || node.activityId !== toolUseId) return tree
  return update(tree, agentId, (current) => ({ ...current, activity: undefined, activityId: undefined }))
}

/** Adds a node under `parentId` (the root when that parent is unknown). */
function add(tree: AgentTree, parentId: string, node: TreeNode): AgentTree {
  if (tree.nodes[node.id]) return tree
  const parentKey = tree.nodes[parentId] ? parentId : ROOT
  const parent = tree.nodes[parentKey]!
  return { ...tree, nodes: { ...tree.nodes, [node.id]: { ...node, parentId: parentKey }, [parentKey]: { ...parent, children: [...parent.children, node.id] } } }
}

function remove(tree: AgentTree, id: string): AgentTree {
  const node = tree.nodes[id]
  if (!node || node.kind === 'main') return tree
  const nodes = { ...tree.nodes }
  delete nodes[id]
  const parent = node.parentId !== undefined ? nodes[node.parentId] : undefined
  if (parent) nodes[parent.id] = { ...parent, children: parent.children.filter((child) => child !== id) }
  // Children of a removed task (none in practice) go to the root rather than vanish.
  for (const child of node.children) if (nodes[child]) nodes[child] = { ...nodes[child]!, parentId: ROOT }
  if (node.children.length > 0) nodes[ROOT] = { ...nodes[ROOT]!, children: [...nodes[ROOT]!.children, ...node.children] }
  return { ...tree, nodes }
}

function update(tree: AgentTree, id: string, change: (node: TreeNode) => TreeNode): AgentTree {
  const node = tree.nodes[id]
  if (!node) return tree
  const next = change(node)
  return next === node ? tree : { ...tree, nodes: { ...tree.nodes, [id]: next } }
}
