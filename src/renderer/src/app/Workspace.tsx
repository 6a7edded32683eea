import type { Project } from '../../../shared/ipc/contract'
import { ChatPane } from './ChatPane'
import { TerminalsPanel } from '../features/terminal/TerminalsPanel'
import type { ProjectContext, View } from './shell'
import { Sidebar } from './ViewHost'

export interface WorkspaceProps {
  context: ProjectContext
  views: readonly View[]
  openProjects: readonly Project[]
  /** The session each open project shows (its Agent terminal follows it). */
  sessions: Readonly<Record<string, string | null>>
  /** Another project is being chosen: this one stays mounted (shells and chat live on) but inert. */
  inert: boolean
}

/** The project on screen: the sidebar's views, the chat, and every open project's terminals. */
export function Workspace({ context, views, openProjects, sessions, inert }: WorkspaceProps) {
  const current = context.project.path
  return (
    <div className="workspace" inert={inert}>
      <Sidebar views={views} context={context} />
      <ChatPane projectPath={current} />
      <div className="terminals">
        {openProjects.map((project) => (
          // Every open project keeps its shells running; only the one on screen is shown.
          <div key={project.path} className="terminals__project" hidden={project.path !== current}>
            <TerminalsPanel
              projectPath={project.path}
              sessionId={sessions[project.path] ?? null}
              fontSize={context.fontSize}
              dark={context.dark}
              visible={project.path === current}
            />
          </div>
        ))}
      </div>
    </div>
  )
}
