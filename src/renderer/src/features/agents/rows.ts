import { rollUp, ROOT, type AgentTree, type TreeNode } from '../../../../shared/protocol/agent-tree'
import { formatTokens, formatUsd, type Spend } from '../../state/spend'

/** One line of the tree as the panel shows it. */
export interface TreeRow {
  node: TreeNode
  /** 1 for the root (`aria-level`). */
  level: number
  /** Tokens and cost of the node and everything below it. */
  tokens: number
  costUsd: number
  /** Approvals this node is waiting for. */
  waiting: number
  /** Whether it has children (and so can be folded). */
  parent: boolean
  folded: boolean
}

/**
 * The rows to show, depth first from the root, skipping what is under a folded node. One pass over
 * the visible nodes plus one roll-up pass, so a tree of hundreds of nodes costs well under a frame.
 */
export function visibleRows(tree: AgentTree, folded: ReadonlySet<string>, waiting: Readonly<Record<string, number>>): TreeRow[] {
  const totals = rollUp(tree)
  const rows: TreeRow[] = []
  const stack: Array<{ id: string; level: number }> = [{ id: ROOT, level: 1 }]
  while (stack.length > 0) {
    const { id, level } = stack.pop()!
    const node = tree.nodes[id]
    if (!node) continue
    const total = totals.get(id) ?? { tokens: node.tokens, costUsd: node.costUsd }
    const isFolded = folded.has(id)
    rows.push({ node, level, tokens: total.tokens, costUsd: total.costUsd, waiting: waiting[id] ?? 0, parent: node.children.length > 0, folded: isFolded })
    if (isFolded) continue
    for (let index = node.children.length - 1; index >= 0; index--) stack.push({ id: node.children[index]!, level: level + 1 })
  }
  return rows
}

/**
 * Whether two rows show the same thing. The fold keeps an unchanged node's object, so a node is
 * compared by identity; this lets a row stay as it is when another agent's node changed.
 */
export function sameRow(a: TreeRow, b: TreeRow): boolean {
  return a.node === b.node && a.level === b.level && a.tokens === b.tokens && a.costUsd === b.costUsd && a.waiting === b.waiting && a.parent === b.parent && a.folded === b.folded
}

const STATE_NAMES: Record<TreeNode['state'], string> = { queued: 'Queued', running: 'Running', done: 'Done', failed: 'Failed', stopped: 'Stopped' }

/** The state as people read it; an approval waiting wins over "running". */
export function stateName(row: Pick<TreeRow, 'node' | 'waiting'>): string {
  if (row.waiting > 0 && (row.node.state === 'running' || row.node.state === 'queued')) return 'Waiting for approval'
  if (row.node.kind === 'main' && row.node.state === 'done') return 'Idle'
  return STATE_NAMES[row.node.state]
}

/** Elapsed time of a node (`1.2s`, `3m 04s`, `1h 02m`), or '' when it has no start time. */
export function elapsed(node: TreeNode, now: number): string {
  if (node.startedAt === undefined) return ''
  const ms = Math.max(0, (node.endedAt ?? now) - node.startedAt)
  if (ms < 10_000) return `${(ms / 1000).toFixed(1)}s`
  const seconds = Math.floor(ms / 1000)
  if (seconds < 3600) return `${Math.floor(seconds / 60)}m ${String(seconds % 60).padStart(2, '0')}s`
  return `${Math.floor(seconds / 3600)}h ${String(Math.floor(seconds / 60) % 60).padStart(2, '0')}m`
}

/** Tokens and cost in a few characters (`12.3k tok · $0.04`, as the footers and the status bar write them); '' when nothing was used. */
export function usageText(tokens: number, costUsd: number): string {
  if (tokens === 0) return ''
  return `${formatTokens(tokens)} tok · ${formatUsd(costUsd)}`
}

/**
 * The rows with the root's figures replaced by the session's total (`state/spend`), so the tree's
 * root, its header, the status bar and the footers are one reckoning. Pure.
 */
export function withSessionTotal(rows: TreeRow[], total: Spend): TreeRow[] {
  const root = rows[0]
  if (!root || root.node.id !== ROOT || (root.tokens === total.tokens && root.costUsd === total.costUsd)) return rows
  return [{ ...root, tokens: total.tokens, costUsd: total.costUsd }, ...rows.slice(1)]
}

/** Whether the user can stop the node from the tree (something of it runs in the host). */
export function canStop(node: TreeNode): boolean {
  return node.state === 'running' && node.kind !== 'task'
}

/** Whether the node has a conversation to open (the main agent and started subagents). */
export function canOpen(node: TreeNode): boolean {
  return node.kind === 'main' || (node.kind === 'agent' && !node.id.startsWith('call/'))
}
