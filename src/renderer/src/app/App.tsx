import { useEffect } from 'react'
import { api } from '../api'
import { ChatPane } from '../features/chat/ChatPane'
import { DropOverlay } from '../features/projects/DropOverlay'
import { OpenProject } from '../features/projects/OpenProject'
import { ProjectBar } from '../features/projects/ProjectBar'
import { useProjects } from '../features/projects/store'
import { TerminalPane } from '../features/terminal/TerminalPane'
import { ConnectionBanner } from './ConnectionBanner'

/** The shell: a top bar, the project's chat and terminal, and the open panel when needed. */
export function App() {
  const current = useProjects((state) => state.current)
  const choosing = useProjects((state) => state.choosing)
  const open = useProjects((state) => state.open)

  // The OS may ask us to open a folder (dropped on the dock icon, a second launch…).
  useEffect(() => api.on('project.openRequested', ({ path }) => void open(path)), [open])

  return (
    <div className="app">
      <header className="topbar">
        <span className="topbar__brand" aria-hidden="true">
          Sous
        </span>
        <ProjectBar />
      </header>
      <ConnectionBanner />
      <main className="app__main">
        {current && (
          // Stays mounted while another project is being chosen, so the shell and chat live on.
          <div className="workspace" inert={choosing}>
            <ChatPane projectPath={current.path} />
            <TerminalPane cwd={current.path} />
          </div>
        )}
        {(!current || choosing) && <OpenProject />}
      </main>
      <DropOverlay />
    </div>
  )
}
