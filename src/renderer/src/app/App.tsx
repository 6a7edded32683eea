import { useDeferredValue, useEffect, useMemo, useState } from 'react'
import { api } from '../api'
import { Palette } from '../features/palette/Palette'
import { OpenProject } from '../features/projects/OpenProject'
import { useProjects } from '../features/projects/store'
import { useExtensions } from '../features/extensions/store'
import { SlashCommands, type SlashRegistry } from '../lib/slash-commands'
import { buildCommands } from './commands'
import { ConnectionBanner } from './ConnectionBanner'
import { ErrorBanner } from './ErrorBanner'
import { EventProblemBanner } from './EventProblemBanner'
import type { ShellContext } from './shell'
import { customCommands } from './custom-commands'
import { SLASH_COMMANDS } from './slash-commands'
import { TopBar } from './TopBar'
import { useAttentionCount, useInboxRows } from './inbox-glue'
import { useProjectSessions } from './use-project-sessions'
import { useTheme } from './use-theme'
import { useWarmUp, useWarmViews } from './use-warm-up'
import { useShortcuts } from './useShortcuts'
import { ViewHost } from './ViewHost'
import { useWorktreeFacts } from '../state/worktrees'
import { VIEWS } from './views'
import { LazyBoundary } from '../lib/LazyBoundary'
import { lazyNamed } from '../lib/lazy'
import { loadInSteps } from '../lib/load-in-steps'
import './workspace.css'

/**
 * The workspace (chat, timeline, sidebar views, terminals: most of the app's code) is its own
 * chunk: the start screen needs none of it, and evaluating it with the rest made the window's
 * start one long task (docs/design/startup.md). It is fetched in the first idle moment, so
 * opening a project seldom waits for it. marked (the chat's Markdown) is evaluated first, in a
 * task of its own: it builds its grammar's ~45 regular expressions as it loads, which was most of
 * the workspace chunk's evaluation (9–17 of 13–22 ms).
 */
const Workspace = lazyNamed(() => loadInSteps([() => import('marked'), () => import('./Workspace')]), 'Workspace')

/**
 * The composition root: project tabs on top; for the project on screen the workspace (the
 * registry's sidebar views, the chat, the terminals); the open panel; the registry's dialogs and
 * overlays; the command palette. Views come from `views.tsx`, slash commands from
 * `slash-commands.ts`, palette commands from `commands.ts` — this file only lays them out.
 */
export function App() {
  const current = useProjects((state) => state.current)
  const openProjects = useProjects((state) => state.openProjects)
  const choosing = useProjects((state) => state.choosing)
  const open = useProjects((state) => state.open)
  const { dark, fontSize } = useTheme()
  const sessions = useProjectSessions(current?.path)
  const [paletteOpen, setPaletteOpen] = useState(false)
  useWarmUp(Workspace.preload)
  // Everything waiting for the user, in every project: its count in the title, the badge and the top bar.
  const waiting = useInboxRows().length
  useAttentionCount(waiting)

  // `/` completion lists the project's own commands after the built-ins.
  const projectPath = current?.path
  useWarmViews(VIEWS, projectPath ?? null)
  useEffect(() => {
    if (projectPath) void useExtensions.getState().load(projectPath)
  }, [projectPath])
  const customInfos = useExtensions((state) => (state.projectPath === projectPath ? state.overview?.slashCommands : undefined))
  const slashRegistry = useMemo<SlashRegistry>(
    () => ({
      commands: [...SLASH_COMMANDS, ...customCommands(customInfos ?? [], SLASH_COMMANDS)],
      refresh: () => projectPath && useExtensions.getState().refresh(projectPath),
    }),
    [customInfos, projectPath],
  )

  // The OS may ask us to open a folder (dropped on the dock icon, a second launch…).
  useEffect(() => api.on('project.openRequested', ({ path }) => void open(path)), [open])

  const { active, openSession, openStartedSession, newSession } = sessions
  const context = useMemo<ShellContext>(
    () => ({ project: current, sessionId: active, dark, fontSize, openSession, openStartedSession, newSession }),
    [current, active, dark, fontSize, openSession, openStartedSession, newSession],
  )
  // The workspace's first mount is a background render (React renders it in slices of a few ms),
  // and the start screen stays until it commits: the reply to `project.open` updates external
  // stores, which React renders synchronously, and the whole workspace rendered in that one task
  // was a long task of the window's start (issue 30). Later changes render as before.
  const workspaceMounted = useDeferredValue(current !== null)
  const inWorktree = useWorktreeFacts((state) => (current ? Boolean(state.marks[current.path]) : false))
  const commands = useMemo(
    () => buildCommands({ current, openProjects, activeSession: active, inWorktree, newSession, views: VIEWS }),
    [current, openProjects, active, inWorktree, newSession],
  )
  useShortcuts(
    useMemo(
      () => [
        { key: 'p', mod: true, shift: true, run: () => setPaletteOpen((value) => !value) },
        ...commands.filter((command) => command.binding).map((command) => ({ ...command.binding!, run: command.run })),
      ],
      [commands],
    ),
  )

  return (
    <SlashCommands value={slashRegistry}>
      <div className="app">
        <TopBar onPalette={() => setPaletteOpen(true)} waiting={waiting} />
        <ConnectionBanner />
        <EventProblemBanner />
        {sessions.error && <ErrorBanner message={sessions.error} onDismiss={sessions.dismissError} />}
        <main className="app__main">
          {context.project && workspaceMounted && (
            <LazyBoundary what="the workspace">
              <Workspace
                context={{ ...context, project: context.project }}
                views={VIEWS}
                openProjects={openProjects}
                sessions={sessions.byProject}
                inert={choosing}
              />
            </LazyBoundary>
          )}
          {(!current || choosing || !workspaceMounted) && <OpenProject />}
        </main>
        <ViewHost views={VIEWS} context={context} />
        {paletteOpen && <Palette commands={commands} onClose={() => setPaletteOpen(false)} />}
      </div>
    </SlashCommands>
  )
}
