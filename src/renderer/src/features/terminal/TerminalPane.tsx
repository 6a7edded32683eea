import { useRef } from 'react'
import '@xterm/xterm/css/xterm.css'
import { useTerminal } from './store'
import { usePtyTerminal } from './usePtyTerminal'
import './terminal.css'

/** A shell in the project folder, on a real PTY. */
export function TerminalPane({ cwd }: { cwd: string }) {
  const container = useRef<HTMLDivElement>(null)
  const { status, exitCode, error, generation, restart } = useTerminal()
  usePtyTerminal(container, cwd, generation)

  return (
    <section className="pane terminal-pane" aria-label="Terminal">
      <header className="pane__header">
        <h2 className="pane__title">Terminal</h2>
        <span className={`status status--${status}`} role="status">
          {status === 'starting' && 'Starting…'}
          {status === 'running' && 'Running'}
          {status === 'exited' && `Exited (${exitCode ?? '?'})`}
          {status === 'failed' && 'Not started'}
        </span>
        {(status === 'exited' || status === 'failed') && (
          <button type="button" className="button button--small" onClick={restart}>
            New shell
          </button>
        )}
      </header>
      {error && (
        <p className="pane__error" role="alert">
          The terminal could not start: {error}
        </p>
      )}
      <div className="terminal-pane__screen" ref={container} />
    </section>
  )
}
