import { useEffect } from 'react'
import { lazyNamed } from '../../lib/lazy'
import { loadInSteps } from '../../lib/load-in-steps'
import { LazyBoundary } from '../../lib/LazyBoundary'
import { useTerminals, type TerminalInfo } from './store'
import { useInboxFacts, waitsForInput } from '../../state/inbox'
import './terminal.css'

/**
 * Fetches the terminal view (xterm and its addons, a third of the app's code) ahead of need; the
 * shell calls it once the first paint is done, so a project's terminals open without waiting.
 * xterm, its Unicode 11 tables and the view are evaluated in tasks of their own (one task, they
 * were 12–27 ms of CPU, up to 50 ms on a loaded machine).
 */
const TerminalView = lazyNamed(() => loadInSteps([() => import('@xterm/xterm'), () => import('@xterm/addon-unicode11'), () => import('./TerminalView')]), 'TerminalView')
export const loadTerminalView = TerminalView.preload

export interface TerminalsPanelProps {
  projectPath: string
  /** The session shown in the Agent terminal. */
  sessionId: string | null
  fontSize: number
  dark: boolean
  /** This project's workspace is on screen. */
  visible: boolean
}

/** A project's terminals as tabs: the Agent terminal and any number of shells on real PTYs. */
export function TerminalsPanel({ projectPath, sessionId, fontSize, dark, visible }: TerminalsPanelProps) {
  const all = useTerminals((state) => state.terminals)
  const activeKey = useTerminals((state) => state.active[projectPath])
  const { ensureProject, add, close, select, restart } = useTerminals.getState()
  useEffect(() => ensureProject(projectPath), [projectPath, ensureProject])
  const terminals = all.filter((t) => t.projectPath === projectPath)
  const active = terminals.find((t) => t.key === activeKey)
  // A command of this session stopped to ask something: the Agent tab says so (it never takes the focus).
  const inputWanted = useInboxFacts((state) => waitsForInput(state.events, sessionId))

  const onTabKey = (event: React.KeyboardEvent, term: TerminalInfo) => {
    const at = terminals.indexOf(term)
    const move = (to: number) => {
      const target = terminals[(to + terminals.length) % terminals.length]
      if (!target) return
      select(projectPath, target.key)
      document.getElementById(tabId(target))?.focus()
    }
    if (event.key === 'ArrowRight') move(at + 1)
    else if (event.key === 'ArrowLeft') move(at - 1)
    else if (event.key === 'Home') move(0)
    else if (event.key === 'End') move(terminals.length - 1)
    else if (event.key === 'Delete' && term.kind === 'shell') close(term.key)
    else return
    event.preventDefault()
  }

  return (
    <section className="pane terminal-pane" aria-label="Terminal">
      <header className="pane__header terminal-pane__header">
        <div className="terminal-tabs" role="tablist" aria-label="Terminals">
          {terminals.map((term) => (
            <div
              key={term.key}
              className={`terminal-tab${term.key === activeKey ? ' terminal-tab--active' : ''}`}
            >
              <button
                type="button"
                role="tab"
                id={tabId(term)}
                aria-selected={term.key === activeKey}
                aria-controls={panelId(term)}
                tabIndex={term.key === activeKey ? 0 : -1}
                className="terminal-tab__button"
                onClick={() => select(projectPath, term.key)}
                onKeyDown={(event) => onTabKey(event, term)}
              >
                {term.title}
                {term.kind === 'agent' && inputWanted && (
                  <>
                    <span className="terminal-tab__badge" aria-hidden="true" />
                    <span className="visually-hidden"> (waiting for input)</span>
                  </>
                )}
              </button>
              {term.kind === 'shell' && (
                <button
                  type="button"
                  className="terminal-tab__close"
                  aria-label={`Close ${term.title}`}
                  onClick={() => close(term.key)}
                >
                  ×
                </button>
              )}
            </div>
          ))}
        </div>
        <button
          type="button"
          className="button button--small"
          onClick={() => add(projectPath)}
          aria-label="New terminal"
        >
          +
        </button>
      </header>
      {active && <TerminalStatusLine term={active} onRestart={() => restart(active.key)} />}
      <div className="terminal-pane__panels">
        {terminals.map((term) => (
          <div
            key={term.key}
            role="tabpanel"
            id={panelId(term)}
            aria-labelledby={tabId(term)}
            className="terminal-pane__panel"
            hidden={term.key !== activeKey}
          >
            <LazyBoundary what="the terminal">
              <TerminalView
                info={term}
                sessionId={sessionId}
                fontSize={fontSize}
                dark={dark}
                visible={visible && term.key === activeKey}
              />
            </LazyBoundary>
          </div>
        ))}
      </div>
    </section>
  )
}

function TerminalStatusLine({ term, onRestart }: { term: TerminalInfo; onRestart: () => void }) {
  if (term.kind === 'agent') {
    return (
      <div className="terminal-pane__status">
        <span className="status" role="status">
          Agent commands
        </span>
      </div>
    )
  }
  return (
    <div className="terminal-pane__status">
      <span className={`status status--${term.status}`} role="status">
        {term.status === 'starting' && 'Starting…'}
        {term.status === 'running' && 'Running'}
        {term.status === 'exited' && `Exited (${term.exitCode ?? '?'})`}
        {term.status === 'failed' && 'Not started'}
      </span>
      {(term.status === 'exited' || term.status === 'failed') && (
        <button type="button" className="button button--small" onClick={onRestart}>
          New shell
        </button>
      )}
      {term.error && (
        <p className="pane__error" role="alert">
          The terminal could not start: {term.error}
        </p>
      )}
    </div>
  )
}

const safe = (key: string) => key.replace(/[^a-zA-Z0-9-]/g, '')
const tabId = (term: TerminalInfo) => `tab-${safe(term.key)}`
const panelId = (term: TerminalInfo) => `panel-${safe(term.key)}`
