import { useRef, type CSSProperties } from 'react'
import type { Project } from '../../../shared/ipc/contract'
import { ChatPane } from './ChatPane'
import { TerminalsPanel } from '../features/terminal/TerminalsPanel'
import { Splitter } from '../lib/Splitter'
import { ofSession } from '../state/approval-queue'
import { usePendingApprovals } from '../state/approvals'
import { setChatShare, setSidebarWidth, useLayout } from '../state/layout'
import { chatBounds, clampChat, clampSidebar, sidebarBounds } from '../state/layout-model'
import { useSessionOnScreen } from '../state/session'
import type { ProjectContext, SidebarView, View } from './shell'
import { SidebarSections } from './SidebarSections'
import { useSize } from './use-width'

export interface WorkspaceProps {
  context: ProjectContext
  views: readonly View[]
  openProjects: readonly Project[]
  /** The session each open project shows (its Agent terminal follows it). */
  sessions: Readonly<Record<string, string | null>>
  /** Another project is being chosen: this one stays mounted (shells and chat live on) but inert. */
  inert: boolean
}

/** Below this width the panes stack (workspace.css) and the splitters step aside. */
const SPLIT_MIN_WIDTH = 1100
/** A splitter's width plus the grid gaps either side of it. */
const SPLITTER_ROOM = 6 + 2 * 3
/** The workspace's own padding, left and right. */
const PADDING = 24

/**
 * The workspace's width before its first layout: it spans the window (`.app__main`), and
 * `window.innerWidth` is known without a layout, so the first frame has the right columns and the
 * workspace is laid out once, in the frame, not in the task that mounts it (`useSize`).
 */
const windowWidth = () => ({ width: window.innerWidth, height: 0 })

/**
 * The project on screen: the sidebar's sections, the chat, and every open project's terminals,
 * with splitters between them (drag or arrow keys; remembered, clamped to the window). Focus mode
 * shows the chat alone; a diff under review with "Expand" on takes the terminals' room too.
 */
export function Workspace({ context, views, openProjects, sessions, inert }: WorkspaceProps) {
  const current = context.project.path
  const element = useRef<HTMLDivElement>(null)
  const { width } = useSize(element, windowWidth)
  const layout = useLayout()
  const sessionId = useSessionOnScreen((state) => state.sessionId)
  const reviewing = usePendingApprovals((state) => ofSession(state.queue, sessionId)[0]?.preview?.kind === 'diff')
  const wideReview = reviewing && layout.reviewWide
  const split = width >= SPLIT_MIN_WIDTH
  const sidebar = clampSidebar(layout.sidebar, width - PADDING)
  const workArea = width - PADDING - sidebar - 2 * SPLITTER_ROOM
  const chat = clampChat(layout.chat, workArea)
  const mode = layout.focus ? 'focus' : wideReview ? 'review' : 'split'
  const terminalsShown = mode === 'split'

  const columns =
    mode === 'focus' ? 'minmax(0, 1fr)' : mode === 'review' ? `${sidebar}px 6px minmax(0, 1fr)` : `${sidebar}px 6px minmax(0, ${chat}fr) 6px minmax(0, ${100 - chat}fr)`
  const style: CSSProperties | undefined = split || mode === 'focus' ? { gridTemplateColumns: columns, gap: 3 } : undefined
  const sidebarViews = views.filter((view): view is SidebarView => view.placement === 'sidebar')

  return (
    <div ref={element} className="workspace" data-layout={mode} inert={inert} style={style}>
      <div className="workspace__sidebar" hidden={mode === 'focus'}>
        <SidebarSections views={sidebarViews} context={context} />
      </div>
      {split && mode !== 'focus' && (
        <Splitter
          label="Resize the sidebar"
          orientation="vertical"
          value={sidebar}
          {...sidebarBounds(width - PADDING)}
          step={16}
          perPixel={1}
          valueText={`${sidebar} pixels`}
          onChange={setSidebarWidth}
        />
      )}
      <ChatPane projectPath={current} />
      {split && terminalsShown && (
        <Splitter
          label="Resize the chat and the terminals"
          orientation="vertical"
          value={chat}
          {...chatBounds(workArea)}
          step={2}
          perPixel={workArea > 0 ? 100 / workArea : 1}
          valueText={`chat ${chat} percent`}
          onChange={setChatShare}
        />
      )}
      <div className="terminals" hidden={!terminalsShown}>
        {openProjects.map((project) => (
          // Every open project keeps its shells running; only the one on screen is shown.
          <div key={project.path} className="terminals__project" hidden={project.path !== current}>
            <TerminalsPanel
              projectPath={project.path}
              sessionId={sessions[project.path] ?? null}
              fontSize={context.fontSize}
              dark={context.dark}
              visible={project.path === current && terminalsShown}
            />
          </div>
        ))}
      </div>
    </div>
  )
}
