import { AgentConversation } from '../features/agents/AgentConversation'
import { AgentsPanel } from '../features/agents/AgentsPanel'
import { FileTree } from '../features/files/FileTree'
import { Viewer } from '../features/files/Viewer'
import { DropOverlay } from '../features/projects/DropOverlay'
import { SessionsSidebar } from '../features/sessions/SessionsSidebar'
import { TaskPanel } from '../features/tasks/TaskPanel'
import { TrustDialog } from '../features/trust/TrustDialog'
import { TrustSettings } from '../features/trust/TrustSettings'
import { lazyNamed } from '../lib/lazy'
import { InboxDialog } from '../features/inbox/InboxDialog'
import { useParallel } from '../features/parallel/store'
import { dismissEntry } from '../state/inbox'
import { heldMessageId } from '../state/inbox-model'
import { api } from '../api'
import { openInboxEntry, useInboxRows } from './inbox-glue'
import type { ProjectContext, View } from './shell'
import { useFilesRevision } from './use-files-revision'
import { useProjects } from '../features/projects/store'
import { useWorktrees } from '../features/worktrees/store'
import { openView } from '../lib/open-dialog'

/**
 * Dialogs are their own chunks, so they cost the first paint nothing; each one's `warm` fetches it
 * in an idle moment after (a few kB each), so its first open is as quick as the next ones.
 */
const SettingsDialog = lazyNamed(() => import('../features/settings/SettingsDialog'), 'SettingsDialog')
const MemoryBrowser = lazyNamed(() => import('../features/memory/MemoryBrowser'), 'MemoryBrowser')
const ExtensionsView = lazyNamed(() => import('../features/extensions/ExtensionsView'), 'ExtensionsView')
const ContextView = lazyNamed(() => import('../features/context/ContextView'), 'ContextView')
const AutoDecisionsView = lazyNamed(() => import('../features/auto-mode/AutoDecisionsView'), 'AutoDecisionsView')
const ParallelView = lazyNamed(() => import('../features/parallel/ParallelView'), 'ParallelView')
const WorktreesView = lazyNamed(() => import('../features/worktrees/WorktreesView'), 'WorktreesView')

/** Fetches a dialog's chunk ahead of its first open; a failure shows in its LazyBoundary if it is opened. */
const preload = (view: { preload(): Promise<void> }) => void view.preload().catch(() => undefined)

/**
 * The view registry: every panel and dialog of the shell, in one place. Adding a feature's view is
 * one entry here; the sidebar, the dialog host and the command palette all read this list, so a
 * registered view is laid out and reachable by name without touching anything else. Open a dialog
 * from anywhere with `openView(id)` (`lib/open-dialog.ts`).
 */
export const VIEWS: readonly View[] = [
  {
    id: 'sessions',
    placement: 'sidebar',
    title: 'Sessions',
    command: {
      title: 'Search sessions',
      focus: 'input[aria-label="Search sessions"]',
      keys: { label: 'Alt+Shift+F', binding: { key: 'f', alt: true, shift: true } },
    },
    render: (context) => <SessionsView context={context} />,
  },
  {
    id: 'tasks',
    placement: 'sidebar',
    title: 'Tasks',
    command: {
      title: 'Show the task list',
      focus: '[aria-label="Tasks"] :is(.task__check, button:not(:disabled))',
      keys: { label: 'Alt+Shift+T', binding: { key: 't', alt: true, shift: true } },
    },
    render: (context) => <TaskPanel sessionId={context.sessionId} />,
  },
  {
    id: 'files',
    placement: 'sidebar',
    title: 'Files',
    command: { title: 'Focus the file tree', focus: '[aria-label="Project files"] button' },
    render: (context) => <FilesView root={context.project.path} sessionId={context.sessionId} />,
  },
  {
    id: 'agents',
    placement: 'sidebar',
    title: 'Agents',
    command: { title: 'Show the agent tree', focus: '[aria-label="Agent tree"] button' },
    render: (context) => <AgentsPanel sessionId={context.sessionId} />,
  },
  {
    id: 'settings',
    placement: 'dialog',
    title: 'Settings',
    command: { title: 'Open settings', keys: { label: 'Ctrl+,', binding: { key: ',', mod: true } } },
    render: (context) => (
      <SettingsDialog projectPath={context.project?.path ?? null} onClose={context.close}>
        {/* Reviewing trust closes Settings first: one modal at a time. */}
        <TrustSettings projectPath={context.project?.path ?? null} onReview={context.close} />
      </SettingsDialog>
    ),
    warm: () => preload(SettingsDialog),
    chunk: SettingsDialog,
  },
  {
    id: 'inbox',
    placement: 'dialog',
    title: 'Inbox',
    command: { title: 'Open the inbox (everything waiting for you)', keys: { label: 'Alt+Shift+I', binding: { key: 'i', alt: true, shift: true } } },
    render: (context) => <InboxView onOpenSession={context.openSession} onClose={context.close} />,
  },
  { id: 'agent-conversation', placement: 'dialog', title: 'Agent conversation', command: { title: 'Open the conversation of the last agent opened' }, render: (context) => <AgentConversation onClose={context.close} /> },
  {
    id: 'memory',
    placement: 'dialog',
    title: 'Memory',
    command: { title: 'Open memory browser', keys: { label: 'Alt+Shift+M', binding: { key: 'm', alt: true, shift: true } } },
    render: (context) => (
      <MemoryBrowser
        projectPath={context.project?.path ?? null}
        dark={context.dark}
        fontSize={context.fontSize}
        onClose={context.close}
        onOpenSession={context.openSession}
      />
    ),
    warm: (projectPath) => {
      preload(MemoryBrowser)
      // The browser's store is in its chunk: this waits for the preload, then lists in the background.
      if (projectPath) void import('../features/memory/store').then(({ useMemory }) => useMemory.getState().prefetch(projectPath)).catch(() => undefined)
    },
    chunk: MemoryBrowser,
  },
  {
    id: 'extensions',
    placement: 'dialog',
    title: 'Extensions',
    command: { title: 'Open extensions: MCP servers, skills, commands, hooks', keys: { label: 'Alt+Shift+X', binding: { key: 'x', alt: true, shift: true } } },
    render: (context) => <ExtensionsView projectPath={context.project?.path ?? null} onClose={context.close} />,
    warm: () => preload(ExtensionsView),
    chunk: ExtensionsView,
  },
  {
    id: 'context',
    placement: 'dialog',
    title: 'Context',
    command: { title: 'Open the context view (what the next request holds)' },
    render: (context) => <ContextView sessionId={context.sessionId} onClose={context.close} />,
    warm: () => preload(ContextView),
    chunk: ContextView,
  },
  {
    id: 'auto-decisions',
    placement: 'dialog',
    title: 'Auto-mode decisions',
    command: { title: 'Open the auto-mode decision log' },
    render: (context) => <AutoDecisionsView sessionId={context.sessionId} onClose={context.close} />,
    warm: () => preload(AutoDecisionsView),
    chunk: AutoDecisionsView,
  },
  {
    id: 'parallel',
    placement: 'dialog',
    title: 'Parallel sessions',
    command: { title: 'Run on N: one prompt in several worktree sessions, compare and merge their hunks' },
    render: (context) => <ParallelView projectPath={context.project?.path ?? null} onOpenSession={context.openSession} onClose={context.close} />,
    warm: (projectPath) => {
      preload(ParallelView)
      // The store is in the main chunk (the event feed feeds it): the runs are read at idle, so the
      // first open paints from them at once and reads them again.
      if (projectPath) void useParallel.getState().prefetch(projectPath)
    },
    chunk: ParallelView,
  },
  {
    id: 'worktrees',
    placement: 'dialog',
    title: 'Worktrees',
    command: { title: 'Worktrees to clean up, and archive worktree sessions' },
    // A removed worktree's tab closes: its folder is gone, and with it its shells' working folder.
    render: (context) => <WorktreesView projectPath={context.project?.path ?? null} onRemoved={(path) => useProjects.getState().closeProject(path)} onClose={context.close} />,
    warm: () => preload(WorktreesView),
    chunk: WorktreesView,
  },
  {
    id: 'viewer',
    placement: 'overlay',
    render: (context) => <Viewer dark={context.dark} fontSize={context.fontSize} />,
  },
  { id: 'drop', placement: 'overlay', render: () => <DropOverlay /> },
  // The trust step shows itself when the open project's own configuration needs a decision.
  { id: 'trust', placement: 'overlay', render: (context) => <TrustDialog projectPath={context.project?.path ?? null} /> },
]

/** The session list, reloaded when the files revision goes up (its own render, not the shell's). */
function SessionsView({ context }: { context: ProjectContext }) {
  const revision = useFilesRevision()
  return <SessionsSidebar projectPath={context.project.path} activeSessionId={context.sessionId} revision={revision} onOpen={context.openSession} onStarted={context.openStartedSession} onNew={context.newSession} onArchive={askArchive} />
}

/** A worktree session's Archive button: the Worktrees dialog opens on it (the one place that archives). */
function askArchive(sessionId: string, title: string): void {
  useWorktrees.getState().choose({ sessionId, title })
  openView('worktrees')
}

/** The file tree and the session's changes, reloaded when the files revision goes up. */
function FilesView({ root, sessionId }: { root: string; sessionId: string | null }) {
  const revision = useFilesRevision()
  return <FileTree root={root} sessionId={sessionId} revision={revision} />
}

/** The inbox over every open project and session; opening an entry closes it and shows the card. */
function InboxView({ onOpenSession, onClose }: { onOpenSession(sessionId: string, projectPath: string): void; onClose(): void }) {
  const rows = useInboxRows()
  return (
    <InboxDialog
      rows={rows}
      onDismiss={dismissEntry}
      onPeer={(row, action) => {
        const messageId = heldMessageId(row)
        if (messageId) void api.invoke('session.peerMessage', { sessionId: row.sessionId, messageId, action }).then((result) => (result.ok ? undefined : dismissEntry(row.id)))
      }}
      onClose={onClose}
      onOpen={(row) => {
        onClose()
        openInboxEntry(row, onOpenSession)
      }}
    />
  )
}
