import { useEffect } from 'react'
import { useAgentTree } from '../features/agents/store'
import { sessionSpend, setSessionSpend, type SpendTurn } from '../state/spend'

/**
 * Keeps `state/spend` current for the session on screen: its transcript (the main agent) joined
 * with its agent tree (the subagents). Here, in the shell, because it joins two features (the chat
 * and the agent tree) that never import each other. The tree is loaded even while the Agents
 * section is folded away: the status bar's total needs it.
 */
export function useSpendReckoning(sessionId: string | null, turns: readonly SpendTurn[]): void {
  const tree = useAgentTree((state) => (state.tree && state.tree.sessionId === sessionId ? state.tree : null))
  useEffect(() => {
    if (sessionId && useAgentTree.getState().sessionId !== sessionId) void useAgentTree.getState().show(sessionId)
  }, [sessionId])
  useEffect(() => {
    setSessionSpend(sessionSpend(turns, tree))
  }, [turns, tree])
}
