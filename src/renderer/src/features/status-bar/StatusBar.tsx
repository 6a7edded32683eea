import { useEffect } from 'react'
import type { Transcript } from '../chat/reducer'
import { useChat } from '../chat/store'
import { compactCount, modeLabel, nextMode, statusFacts } from './status'
import './status-bar.css'

/**
 * Model, permission mode (Shift+Tab cycles it; plan mode stands out), context used against the
 * window, tokens, session cost and cache-read share.
 */
export function StatusBar({ transcript }: { transcript: Transcript }) {
  const facts = statusFacts(transcript)
  const mode = useChat((state) => state.mode)
  const problem = useChat((state) => state.modeError) ?? undefined
  const setMode = useChat((state) => state.setMode)

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Tab' || !event.shiftKey || event.ctrlKey || event.altKey || event.metaKey) return
      // Shift+Tab belongs to focus navigation except in the composer and on the body.
      const target = event.target as HTMLElement | null
      if (target && target !== document.body && !target.closest('.composer')) return
      event.preventDefault()
      void setMode(nextMode(mode))
    }
    window.addEventListener('keydown', onKey)
    return () => window.removeEventListener('keydown', onKey)
  }, [mode, setMode])

  const share = Math.min(1, facts.contextUsed / facts.contextWindow)
  return (
    <footer className={`status-bar status-bar--${mode}`} aria-label="Status">
      <span className="status-bar__mode" data-testid="permission-mode" title={problem ?? 'Shift+Tab to switch'}>
        {modeLabel(mode)}
        {problem && ' ⚠'}
      </span>
      <span className="status-bar__model">{facts.model === undefined ? 'no model yet' : facts.model || 'model not named'}</span>
      <span className="status-bar__context" title={`${facts.contextUsed.toLocaleString()} of ${facts.contextWindow.toLocaleString()} tokens`}>
        <meter min={0} max={1} low={0.6} high={0.85} optimum={0} value={share} aria-label="Context used" />
        {compactCount(facts.contextUsed)} / {compactCount(facts.contextWindow)}
      </span>
      <span>{compactCount(facts.totalTokens)} tokens</span>
      <span>${facts.costUsd.toFixed(facts.costUsd < 1 ? 3 : 2)}</span>
      {facts.cacheReadShare !== undefined && <span title="Share of input read from the prompt cache">cache {Math.round(facts.cacheReadShare * 100)}%</span>}
    </footer>
  )
}
