import { useEffect, useRef, useState } from 'react'
import '@xterm/xterm/css/xterm.css'
import { TerminalSearch } from './TerminalSearch'
import { useTerminals, type TerminalInfo } from './store'
import { darkTheme, lightTheme } from './theme'
import { wireAgent } from './wire-agent'
import { wireShell } from './wire-shell'
import { makeXterm, openXterm, type XtermKit } from './xterm-setup'
import { afterPaint } from '../../lib/after-paint'

export interface TerminalViewProps {
  info: TerminalInfo
  /** The session whose commands the Agent terminal shows. */
  sessionId: string | null
  fontSize: number
  dark: boolean
  /** The tab is shown (hidden tabs keep running). */
  visible: boolean
}

/** One terminal: an xterm on a real shell, or the Agent terminal, with search (Ctrl+Shift+F). */
export function TerminalView({ info, sessionId, fontSize, dark, visible }: TerminalViewProps) {
  const host = useRef<HTMLDivElement>(null)
  const [kit, setKit] = useState<XtermKit | null>(null)
  const [searching, setSearching] = useState(false)
  const session = useRef(sessionId)
  session.current = sessionId
  /** The Agent terminal's "show this session" (replays a stored session's commands). */
  const showSession = useRef<(id: string | null) => void>(() => {})
  useEffect(() => showSession.current(sessionId), [sessionId, kit])
  const initial = useRef({ fontSize, dark })
  const searchRequest = useTerminals((state) => state.searchRequests[info.key] ?? 0)
  useEffect(() => {
    if (searchRequest > 0) setSearching(true)
  }, [searchRequest])

  useEffect(() => {
    const element = host.current
    if (!element) return
    let made: XtermKit | undefined
    let stop: (() => void) | undefined
    let observer: ResizeObserver | undefined
    let frame = 0
    // After the frame that first shows the view, in three tasks (construct; open; fit and wire): in
    // the commit's task, the terminal's start was 40–90 ms of the project's first render, one long
    // task with the rest of the workspace (issue 30, bench/startup-window.ts).
    const cancel = afterPaint([
      () => {
        made = makeXterm({ fontSize: initial.current.fontSize, theme: initial.current.dark ? darkTheme : lightTheme })
        made.term.attachCustomKeyEventHandler((event) => {
          // Ctrl/Cmd+Shift+F searches the scrollback; everything else goes to the program.
          if (
            event.type === 'keydown' &&
            event.shiftKey &&
            (event.ctrlKey || event.metaKey) &&
            event.key.toLowerCase() === 'f'
          ) {
            setSearching(true)
            return false
          }
          // Let the app's shortcuts through (palette, settings).
          if (event.shiftKey && (event.ctrlKey || event.metaKey) && event.key.toLowerCase() === 'p') return false
          return true
        })
      },
      () => openXterm(made!, element),
      () => {
        const kit = made!
        kit.safeFit()
        const update = useTerminals.getState().update
        if (info.kind === 'agent') {
          const agent = wireAgent(kit, () => session.current)
          agent.showSession(session.current)
          showSession.current = agent.showSession
          stop = agent.dispose
        } else {
          // A tab brought back by a reload takes up its shell (read once: later ids are this view's own).
          stop = wireShell(kit, info.projectPath, (patch) => update(info.key, patch), useTerminals.getState().terminals.find((t) => t.key === info.key)?.ptyId)
        }
        // Fit on the next frame: the observer fires during layout, and fitting there loops.
        observer = new ResizeObserver(() => {
          cancelAnimationFrame(frame)
          frame = requestAnimationFrame(kit.safeFit)
        })
        observer.observe(element)
        setKit(kit)
      },
    ])
    return () => {
      cancel()
      cancelAnimationFrame(frame)
      observer?.disconnect()
      stop?.()
      made?.dispose()
      setKit(null)
    }
  }, [info.key, info.kind, info.projectPath, info.generation])

  useEffect(() => {
    if (!kit) return
    kit.term.options.fontSize = fontSize
    kit.term.options.theme = dark ? darkTheme : lightTheme
    kit.safeFit()
  }, [kit, fontSize, dark])

  useEffect(() => {
    if (visible && kit) requestAnimationFrame(() => kit.safeFit())
  }, [visible, kit])

  return (
    <div className="terminal-view">
      {searching && kit && (
        <TerminalSearch
          search={kit.search}
          onClose={() => {
            setSearching(false)
            kit.term.focus()
          }}
        />
      )}
      <div className="terminal-view__screen" ref={host} aria-label={`${info.title} screen`} />
    </div>
  )
}
