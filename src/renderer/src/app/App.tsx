import { useCallback, useEffect, useMemo, useState } from 'react'
import { api } from '../api'
import { ChatPane } from './ChatPane'
import { useChat } from '../features/chat/store'
import { FileTree } from '../features/files/FileTree'
import { Viewer } from '../features/files/Viewer'
import { Palette } from '../features/palette/Palette'
import { DropOverlay } from '../features/projects/DropOverlay'
import { OpenProject } from '../features/projects/OpenProject'
import { ProjectBar } from '../features/projects/ProjectBar'
import { useProjects } from '../features/projects/store'
import { SessionsSidebar } from '../features/sessions/SessionsSidebar'
import { SettingsDialog } from '../features/settings/SettingsDialog'
import { isDark } from '../features/settings/describe'
import { useSettings } from '../features/settings/store'
import { TerminalsPanel } from '../features/terminal/TerminalsPanel'
import { ConnectionBanner } from './ConnectionBanner'
import { buildCommands } from './commands'
import { newSessionInChat, openSessionInChat } from './session-glue'
import { useShortcuts } from './useShortcuts'
import { useSystemDark } from './useSystemDark'
import './workspace.css'

/**
 * The shell: project tabs on top; for the project on screen a sidebar (sessions, files), the chat
 * and the terminals; the open panel, settings, the file viewer and the command palette on demand.
 */
export function App() {
  const current = useProjects((state) => state.current)
  const openProjects = useProjects((state) => state.openProjects)
  const choosing = useProjects((state) => state.choosing)
  const open = useProjects((state) => state.open)
  const preferences = useSettings((state) => state.preferences)
  const chatProject = useChat((state) => state.projectPath)
  const chatSession = useChat((state) => state.sessionId)
  const systemDark = useSystemDark()
  const dark = isDark(preferences.theme, systemDark)
  const [paletteOpen, setPaletteOpen] = useState(false)
  /** The session each open project shows (so switching project tabs brings it back). */
  const [sessions, setSessions] = useState<Record<string, string | null>>({})
  /** Bumped when the agent may have changed files. */
  const [revision, setRevision] = useState(0)
  const [glueError, setGlueError] = useState<string | null>(null)

  // The OS may ask us to open a folder (dropped on the dock icon, a second launch…).
  useEffect(() => api.on('project.openRequested', ({ path }) => void open(path)), [open])
  useEffect(() => {
    void useSettings.getState().load()
  }, [])
  useEffect(() => {
    document.documentElement.dataset.theme = dark ? 'dark' : 'light'
    document.documentElement.style.setProperty('--ui-font-size', `${preferences.fontSize + 1}px`)
  }, [dark, preferences.fontSize])

  // Remember which session the chat shows for its project (a new one appears on the first prompt).
  useEffect(() => {
    if (chatProject)
      setSessions((all) => (all[chatProject] === chatSession ? all : { ...all, [chatProject]: chatSession }))
  }, [chatProject, chatSession])

  // Coming back to a project tab brings its session back into the chat.
  const currentPath = current?.path
  useEffect(() => {
    if (!currentPath) return
    const remembered = sessions[currentPath]
    if (remembered && useChat.getState().sessionId !== remembered)
      void openSessionInChat(currentPath, remembered).then(setGlueError)
    // Only on a project switch; `sessions` changes on every new session.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [currentPath])

  // Files the agent touched: refresh the tree and the change marks when a tool or a turn ends.
  useEffect(
    () =>
      api.on('agent.event', (event) => {
        if (
          event.sessionId === useChat.getState().sessionId &&
          (event.type === 'tool_end' || event.type === 'turn_end')
        )
          setRevision((r) => r + 1)
      }),
    [],
  )

  const activeSession = currentPath ? (sessions[currentPath] ?? null) : null
  const openSession = useCallback(
    (sessionId: string, projectPath: string) => {
      if (projectPath === currentPath)
        return void openSessionInChat(projectPath, sessionId).then(setGlueError)
      // Another project's session (found by searching all projects): open that project, and the
      // project-switch effect above brings this session into the chat.
      setSessions((all) => ({ ...all, [projectPath]: sessionId }))
      void open(projectPath)
    },
    [currentPath, open],
  )
  const newSession = useCallback(() => {
    if (currentPath) newSessionInChat(currentPath)
  }, [currentPath])

  const commands = useMemo(
    () => buildCommands({ current: current ?? null, openProjects, activeSession, newSession, dark }),
    [current, openProjects, activeSession, newSession, dark],
  )
  useShortcuts(
    useMemo(
      () => [
        { key: 'p', mod: true, shift: true, run: () => setPaletteOpen((value) => !value) },
        { key: ',', mod: true, run: () => useSettings.getState().setOpen(true) },
        ...commands.filter((c) => c.binding).map((c) => ({ ...c.binding!, run: c.run })),
      ],
      [commands],
    ),
  )

  return (
    <div className="app">
      <header className="topbar">
        <span className="topbar__brand" aria-hidden="true">
          Sous
        </span>
        <ProjectBar />
        <div className="topbar__tools">
          <button
            type="button"
            className="button button--quiet"
            onClick={() => setPaletteOpen(true)}
            aria-keyshortcuts="Control+Shift+P"
            title="Command palette (Ctrl+Shift+P)"
          >
            Commands
          </button>
          <button
            type="button"
            className="button button--quiet"
            onClick={() => useSettings.getState().setOpen(true)}
            aria-keyshortcuts="Control+,"
            title="Settings (Ctrl+,)"
          >
            Settings
          </button>
        </div>
      </header>
      <ConnectionBanner />
      {glueError && (
        <p className="connection-banner" role="alert">
          {glueError}{' '}
          <button
            type="button"
            className="button button--quiet button--small"
            onClick={() => setGlueError(null)}
            aria-label="Dismiss error"
          >
            ×
          </button>
        </p>
      )}
      <main className="app__main">
        {current && (
          // Stays mounted while another project is being chosen, so the shells and chat live on.
          <div className="workspace" inert={choosing}>
            <aside className="sidebar" aria-label="Project">
              <SessionsSidebar
                projectPath={current.path}
                activeSessionId={activeSession}
                revision={revision}
                onOpen={openSession}
                onNew={newSession}
              />
              <FileTree root={current.path} sessionId={activeSession} revision={revision} />
            </aside>
            <ChatPane projectPath={current.path} />
            <div className="terminals">
              {openProjects.map((project) => (
                // Every open project keeps its shells running; only the one on screen is shown.
                <div key={project.path} className="terminals__project" hidden={project.path !== current.path}>
                  <TerminalsPanel
                    projectPath={project.path}
                    sessionId={sessions[project.path] ?? null}
                    fontSize={preferences.fontSize}
                    dark={dark}
                    visible={project.path === current.path}
                  />
                </div>
              ))}
            </div>
          </div>
        )}
        {(!current || choosing) && <OpenProject />}
      </main>
      <DropOverlay />
      <Viewer dark={dark} fontSize={preferences.fontSize} />
      <SettingsDialog projectPath={current?.path ?? null} />
      {paletteOpen && <Palette commands={commands} onClose={() => setPaletteOpen(false)} />}
    </div>
  )
}
