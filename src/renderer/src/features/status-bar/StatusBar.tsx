import { useEffect } from 'react'
import type { PermissionModeName } from '../../../../shared/ipc/contract'
import { openView } from '../../lib/open-dialog'
import { budgetFacts, compactCount, highMark, lowMark, modeLabel, nextMode, statusFacts, type UsageHistory } from './status'
import { formatTokens, formatUsd, useSessionSpend } from '../../state/spend'
import { groupDigits } from '../../lib/group-digits'
import './status-bar.css'

/** What the status bar shows and the one thing it changes (the mode); the shell wires it to the chat. */
export interface StatusBarProps {
  transcript: UsageHistory
  mode: PermissionModeName
  /** Why the last mode switch failed, if it did. */
  modeProblem?: string
  setMode(mode: PermissionModeName): void | Promise<void>
  /** What the agent is doing now (the in-progress task's active form); shown only while a turn runs. */
  activity?: string
  /** The model new turns use, shown before any reply has named one. */
  configuredModel?: string
  /** `disableAutoMode`: Shift+Tab leaves auto out. */
  autoModeOff?: boolean
}

/**
 * Model, permission mode (Shift+Tab cycles it; plan mode stands out), what the agent is working on,
 * context used against the window, tokens, session cost and cache-read share.
 */
export function StatusBar({ transcript, mode, modeProblem: problem, setMode, activity, configuredModel, autoModeOff = false }: StatusBarProps) {
  const facts = statusFacts(transcript)
  const budget = budgetFacts(transcript)
  // The session's total, subagents included: the same reckoning the footers and the agent tree show.
  const spend = useSessionSpend((state) => state.total)

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Tab' || !event.shiftKey || event.ctrlKey || event.altKey || event.metaKey) return
      // Shift+Tab belongs to focus navigation except in the composer and on the body.
      const target = event.target as HTMLElement | null
      if (target && target !== document.body && !target.closest('.composer')) return
      event.preventDefault()
      void setMode(nextMode(mode, autoModeOff))
    }
    window.addEventListener('keydown', onKey)
    return () => window.removeEventListener('keydown', onKey)
  }, [mode, setMode, autoModeOff])

  const share = Math.min(1, facts.contextUsed / facts.contextWindow)
  return (
    <footer className={`status-bar status-bar--${mode}`} aria-label="Status">
      <span className="status-bar__mode" data-testid="permission-mode" title={problem ?? 'Shift+Tab to switch'}>
        {modeLabel(mode)}
        {problem && ' ⚠'}
      </span>
      {activity && (
        <span className="status-bar__activity" data-testid="task-activity" title="The task in progress">
          {activity}…
        </span>
      )}
      <span className="status-bar__model">{facts.model === undefined ? (configuredModel ?? 'model not known yet') : facts.model || 'model not named'}</span>
      <button
        type="button"
        className="status-bar__context"
        aria-label={`Context used: ${compactCount(facts.contextUsed)} of ${compactCount(facts.contextWindow)} tokens. Open the context view`}
        // Grouped as the footers are, without ICU: its number formatter's first use was a long task of the first render (lib/group-digits.ts).
        title={`${groupDigits(facts.contextUsed)} of ${groupDigits(facts.contextWindow)} tokens${facts.autoCompactAt ? `; automatic compaction at ${groupDigits(facts.autoCompactAt)}` : ''}. Open the context view`}
        onClick={() => openView('context')}
      >
        <meter min={0} max={1} low={lowMark(facts)} high={highMark(facts)} optimum={0} value={share} aria-hidden="true" />
        {compactCount(facts.contextUsed)} / {compactCount(facts.contextWindow)}
      </button>
      <span data-testid="session-tokens">{formatTokens(spend.tokens)} tokens</span>
      <span data-testid="session-cost">{formatUsd(spend.costUsd)}</span>
      {budget && (
        // Not a live region: the forecast changes with every request, and the 80 % warning is said in the chat.
        <span className={`status-bar__budget status-bar__budget--${budget.level}`} role="note" aria-label={budget.label} title={budget.label} data-testid="budget">
          {budget.againstCap ?? ''}
          {budget.againstCap ? ' · ' : ''}next {budget.next}
        </span>
      )}
      {facts.cacheReadShare !== undefined && <span title="Share of input read from the prompt cache">cache {Math.round(facts.cacheReadShare * 100)}%</span>}
    </footer>
  )
}
