import { api } from '../../api'
import { createAcker } from './flow'
import type { TerminalStatus } from './store'
import type { XtermKit } from './xterm-setup'

/** What a shell view reports back to its tab. */
export interface ShellReport {
  (patch: { status?: TerminalStatus; exitCode?: number | null; error?: string | null; ptyId?: string }): void
}

/**
 * Runs a user shell on a real PTY in `cwd` inside `kit`, until the returned function is called
 * (which kills it). Output is acknowledged only after xterm has rendered it, so a flood (`yes`,
 * `cat big.log`) pauses the PTY instead of swamping the renderer. With `attachId` (a tab brought
 * back by a page reload) it takes up that shell, drawing its recent output first; a new shell
 * starts when that one has ended.
 */
export function wireShell(kit: XtermKit, cwd: string, report: ShellReport, attachId?: string): () => void {
  const { term } = kit
  let id: string | undefined
  let disposed = false
  // Output can arrive before pty.create answers; keep it until we know our id.
  const early: Array<{ id: string; data: string }> = []
  const acker = createAcker((chars) => {
    if (id && !disposed) void api.invoke('pty.ack', { id, chars })
  })
  const render = (data: string) => term.write(data, () => acker.rendered(data.length))

  const offData = api.on('pty.data', (event) => {
    if (id === undefined) early.push(event)
    else if (event.id === id) render(event.data)
  })
  const offExit = api.on('pty.exit', (event) => {
    if (event.id !== id) return
    term.write(`\r\n\x1b[2m[process exited with code ${event.exitCode}]\x1b[0m\r\n`)
    report({ status: 'exited', exitCode: event.exitCode })
  })

  report({ status: 'starting', exitCode: null, error: null })
  const started = (ptyId: string) => {
    id = ptyId
    report({ status: 'running', ptyId })
    // The container may have been resized while we waited.
    void api.invoke('pty.resize', { id, cols: Math.max(term.cols, 2), rows: Math.max(term.rows, 1) })
  }
  const create = () =>
    void api.invoke('pty.create', { cwd, cols: Math.max(term.cols, 2), rows: Math.max(term.rows, 1) }).then((result) => {
      if (!result.ok) {
        if (!disposed) report({ status: 'failed', error: result.error.message })
        return
      }
      if (disposed) {
        // Closed while the shell was starting: do not leave it running.
        void api.invoke('pty.kill', { id: result.value.id })
        return
      }
      for (const event of early.splice(0)) if (event.id === result.value.id) render(event.data)
      started(result.value.id)
    })
  if (attachId === undefined) create()
  else
    void api.invoke('pty.attach', { id: attachId }).then((result) => {
      if (disposed) return
      if (!result.ok) {
        term.write('\x1b[2m[the shell of this tab ended while the page reloaded; this is a new one]\x1b[0m\r\n')
        early.length = 0
        return create()
      }
      // What arrived before the answer is in the output it returns, which the host counts as acknowledged.
      early.length = 0
      term.write(result.value.data)
      started(attachId)
    })

  const typing = term.onData((data) => {
    if (id) void api.invoke('pty.write', { id, data })
  })
  const resizing = term.onResize(({ cols, rows }) => {
    if (id) void api.invoke('pty.resize', { id, cols, rows })
  })
  return () => {
    disposed = true
    typing.dispose()
    resizing.dispose()
    offData()
    offExit()
    if (id) void api.invoke('pty.kill', { id })
  }
}
