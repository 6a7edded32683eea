import { useEffect, type RefObject } from 'react'
import { Terminal } from '@xterm/xterm'
import { FitAddon } from '@xterm/addon-fit'
import { api } from '../../api'
import { useTerminal } from './store'
import { currentTheme } from './theme'

/**
 * Runs an xterm in `container` on a real PTY in `cwd` for as long as the component lives (or
 * until `cwd` or `generation` changes). Output is acknowledged only after xterm has rendered it,
 * so a flood (`yes`, `cat big.log`) pauses the PTY instead of swamping the renderer.
 */
export function usePtyTerminal(container: RefObject<HTMLDivElement | null>, cwd: string, generation: number): void {
  useEffect(() => {
    const host = container.current
    if (!host) return
    const store = useTerminal.getState()
    store.starting()

    const term = new Terminal({
      fontFamily: 'ui-monospace, "SF Mono", "JetBrains Mono", "DejaVu Sans Mono", Menlo, Consolas, monospace',
      fontSize: 13,
      lineHeight: 1.2,
      cursorBlink: true,
      scrollback: 5000,
      theme: currentTheme(),
    })
    const fit = new FitAddon()
    term.loadAddon(fit)
    term.open(host)
    safeFit(fit)

    let id: string | undefined
    let disposed = false
    // Output can arrive before pty.create answers; keep it until we know our id.
    const early: Array<{ id: string; data: string }> = []

    let unacked = 0
    let ackQueued = false
    const ack = (chars: number) => {
      unacked += chars
      if (ackQueued) return
      ackQueued = true
      // Several write callbacks fire in one parse pass; one request acknowledges them all.
      queueMicrotask(() => {
        ackQueued = false
        if (id && unacked > 0 && !disposed) void api.invoke('pty.ack', { id, chars: unacked })
        unacked = 0
      })
    }
    const render = (data: string) => term.write(data, () => ack(data.length))

    const offData = api.on('pty.data', (event) => {
      if (id === undefined) early.push(event)
      else if (event.id === id) render(event.data)
    })
    const offExit = api.on('pty.exit', (event) => {
      if (event.id !== id) return
      term.write(`\r\n\x1b[2m[process exited with code ${event.exitCode}]\x1b[0m\r\n`)
      useTerminal.getState().exited(event.exitCode)
    })

    void api.invoke('pty.create', { cwd, cols: term.cols, rows: term.rows }).then((result) => {
      if (!result.ok) {
        if (!disposed) useTerminal.getState().failed(result.error.message)
        return
      }
      if (disposed) {
        // Unmounted while the shell was starting: do not leave it running.
        void api.invoke('pty.kill', { id: result.value.id })
        return
      }
      id = result.value.id
      for (const event of early.splice(0)) if (event.id === id) render(event.data)
      useTerminal.getState().started()
      // The container may have been resized while we waited.
      if (term.cols !== 0) void api.invoke('pty.resize', { id, cols: term.cols, rows: term.rows })
    })

    const typing = term.onData((data) => {
      if (id) void api.invoke('pty.write', { id, data })
    })
    const resizing = term.onResize(({ cols, rows }) => {
      if (id) void api.invoke('pty.resize', { id, cols, rows })
    })

    // Fit on the next frame: the observer fires during layout, and fitting there loops.
    let frame = 0
    const observer = new ResizeObserver(() => {
      cancelAnimationFrame(frame)
      frame = requestAnimationFrame(() => safeFit(fit))
    })
    observer.observe(host)

    const scheme = window.matchMedia('(prefers-color-scheme: dark)')
    const onScheme = () => (term.options.theme = currentTheme())
    scheme.addEventListener('change', onScheme)

    return () => {
      disposed = true
      scheme.removeEventListener('change', onScheme)
      cancelAnimationFrame(frame)
      observer.disconnect()
      typing.dispose()
      resizing.dispose()
      offData()
      offExit()
      if (id) void api.invoke('pty.kill', { id })
      term.dispose()
    }
  }, [container, cwd, generation])
}

function safeFit(fit: FitAddon): void {
  try {
    fit.fit()
  } catch {
    // A hidden container has no size; the next resize fits it.
  }
}
