import type { Project } from '../../../shared/ipc/contract'
import { useFiles } from '../features/files/store'
import { useProjects } from '../features/projects/store'
import { useRemoteProjects } from '../features/projects/remote-store'
import { useSessions } from '../features/sessions/store'
import { useSettings } from '../features/settings/store'
import { useTerminals } from '../features/terminal/store'
import { openView } from '../lib/open-dialog'
import type { AppCommand, View } from './shell'
import { viewCommands } from './view-commands'
import { focusWhenShown } from './show-view'
import { revealSection, toggleFocusMode, useLayout } from '../state/layout'
import { DEFAULT_LAYOUT } from '../state/layout-model'
import { useChat } from '../features/chat/store'
import { chatCommands } from './chat-commands'
import { useTrust } from '../features/trust/store'
import { useExtensionsSection, type Section } from '../features/extensions/section'
import { useRewind } from '../features/rewind/store'
import { startReplay } from '../features/timeline/replay-store'
import { useTimeline } from '../features/timeline/store'
import { useWorktrees } from '../features/worktrees/store'
import { api } from '../api'

export type { AppCommand }

interface Context {
  current: Project | null
  openProjects: readonly Project[]
  activeSession: string | null
  /** The project on screen is a worktree (a worktree session's folder): its session can be archived. */
  inWorktree: boolean
  newSession(): void
  /** The view registry: each view brings its own command. */
  views: readonly View[]
}

/** Focuses the first element matching `selector` once it is on screen (after the palette closed, a section unfolded). */
const focus = focusWhenShown

/**
 * Every action of the workspace, for the palette (and the keyboard shortcuts it lists): the views'
 * own commands first, then the actions that are not views.
 */
export function buildCommands(ctx: Context): AppCommand[] {
  const { current } = ctx
  const extensionsAt = (section: Section) => () => {
    useExtensionsSection.getState().show(section)
    openView('extensions')
  }
  const commands: AppCommand[] = [
    ...viewCommands(ctx.views, current !== null, { openDialog: openView, focus, reveal: revealSection }),
    { id: 'extensions.mcp', title: 'MCP servers (/mcp)', run: extensionsAt('mcp') },
    { id: 'extensions.hooks', title: 'Hook inspector (/hooks)', run: extensionsAt('hooks') },
    { id: 'extensions.skills', title: 'Skills', run: extensionsAt('skills') },
    { id: 'extensions.commands', title: 'Custom slash commands', run: extensionsAt('commands') },
    { id: 'layout.reset', title: 'Reset the layout (pane sizes, folded sections)', run: () => useLayout.setState({ ...DEFAULT_LAYOUT, diff: useLayout.getState().diff }) },
    { id: 'project.open', title: 'Open a project…', run: () => useProjects.getState().setChoosing(true) },
    { id: 'project.openRemote', title: 'Open remote project… (ssh)', run: () => useRemoteProjects.getState().show() },
    ...(['light', 'dark', 'system'] as const).map((theme) => ({
      id: `theme.${theme}`,
      title: `Theme: ${theme[0]!.toUpperCase()}${theme.slice(1)}`,
      run: () => void useSettings.getState().update({ theme }),
    })),
  ]
  if (!current) return commands
  const path = current.path
  const terminals = () => useTerminals.getState()
  const activeTerminal = () => terminals().active[path]
  const focusTerminal = () =>
    requestAnimationFrame(() => focus(`[role="tabpanel"]:not([hidden]) .xterm-helper-textarea`))
  commands.push(
    {
      id: 'layout.focus',
      title: 'Focus mode: the chat alone (toggle)',
      shortcut: 'Alt+Shift+Z',
      binding: { key: 'z', alt: true, shift: true },
      run: toggleFocusMode,
    },
    {
      id: 'chat.focus',
      title: 'Focus the message box',
      shortcut: 'Alt+Shift+C',
      binding: { key: 'c', alt: true, shift: true },
      run: () => focus('textarea[aria-label="Message"]'),
    },
    {
      id: 'checkpoints.rewind',
      title: 'Rewind to a checkpoint (/rewind, Esc Esc)',
      run: () => {
        if (ctx.activeSession) void useRewind.getState().open(ctx.activeSession)
      },
    },
    {
      id: 'session.new',
      title: 'New session',
      shortcut: 'Alt+Shift+N',
      binding: { key: 'n', alt: true, shift: true },
      run: ctx.newSession,
    },
    {
      id: 'session.newInWorktree',
      title: 'New session in a worktree…',
      run: () => {
        useSessions.getState().setInWorktree(true)
        revealSection('sessions')
        focus('input[aria-label="Worktree name"]')
      },
    },
    {
      id: 'terminal.new',
      title: 'New terminal',
      shortcut: 'Ctrl+Shift+`',
      binding: { key: '`', mod: true, shift: true },
      run: () => {
        terminals().add(path)
        focusTerminal()
      },
    },
    {
      id: 'terminal.agent',
      title: 'Show the Agent terminal',
      run: () => {
        const agent = terminals().terminals.find((t) => t.projectPath === path && t.kind === 'agent')
        if (agent) terminals().select(path, agent.key)
        focusTerminal()
      },
    },
    {
      id: 'terminal.next',
      title: 'Next terminal',
      shortcut: 'Alt+Shift+→',
      binding: { key: 'ArrowRight', alt: true, shift: true },
      run: () => terminals().cycle(path, 1),
    },
    {
      id: 'terminal.previous',
      title: 'Previous terminal',
      shortcut: 'Alt+Shift+←',
      binding: { key: 'ArrowLeft', alt: true, shift: true },
      run: () => terminals().cycle(path, -1),
    },
    {
      id: 'terminal.focus',
      title: 'Focus the terminal',
      shortcut: 'Ctrl+`',
      binding: { key: '`', mod: true },
      run: focusTerminal,
    },
    {
      id: 'terminal.find',
      title: 'Find in terminal',
      shortcut: 'Ctrl+Shift+F',
      run: () => {
        const key = activeTerminal()
        if (key) terminals().requestSearch(key)
      },
    },
    {
      id: 'terminal.close',
      title: 'Close terminal',
      run: () => {
        const key = activeTerminal()
        if (key) terminals().close(key)
      },
    },
    {
      id: 'timeline.toggle',
      title: 'Show or hide the session timeline',
      run: () => useTimeline.getState().toggle(),
    },
    {
      id: 'timeline.focus',
      title: 'Focus the session timeline',
      run: () => {
        if (!useTimeline.getState().shown) useTimeline.getState().toggle()
        requestAnimationFrame(() => focus('[role="toolbar"][aria-label="Session timeline"] button[tabindex="0"]'))
      },
    },
    {
      id: 'trust.review',
      title: 'Review project trust…',
      run: () => void useTrust.getState().review(path),
    },
  )
  const chat = () => useChat.getState()
  commands.push(
    ...chatCommands(
      {
        setMode: (mode) => void chat().setMode(mode),
        setModel: (model) => void chat().setModel(model),
        setThinking: (thinking) => void chat().setReasoning({ thinking }),
        compact: () => void chat().compact(''),
        stop: () => void chat().stop(),
        loop: () =>
          requestAnimationFrame(() => {
            const box = document.querySelector<HTMLTextAreaElement>('textarea[aria-label="Message"]')
            if (!box) return
            // The composer is a controlled field: set the value the way typing does, so its state follows.
            Object.getOwnPropertyDescriptor(HTMLTextAreaElement.prototype, 'value')?.set?.call(box, '/loop 10m ')
            box.dispatchEvent(new Event('input', { bubbles: true }))
            box.focus()
          }),
        rename: () => {
          revealSection('sessions')
          // The session on screen's row: its Rename button opens the name field.
          focusWhenShown('.session--active')
          requestAnimationFrame(() => document.querySelector<HTMLButtonElement>('.session--active button[aria-label^="Rename "]')?.click())
        },
      },
      ctx.activeSession !== null,
    ),
  )
  if (ctx.activeSession) {
    const sessionId = ctx.activeSession
    commands.push(
      {
        id: 'session.changes',
        title: 'Show changes of this session',
        run: () => void useFiles.getState().showChanges(sessionId),
      },
      {
        id: 'session.export',
        title: 'Export this session as Markdown',
        run: () => void useSessions.getState().exportMarkdown(sessionId),
      },
      {
        id: 'session.exportReplay',
        title: 'Export this session as an HTML replay',
        run: () => void useSessions.getState().exportReplay(sessionId),
      },
      // The per-session toggle for messages other sessions of this machine send (ListAgents / SendMessage).
      ...(['accept', 'hold', 'refuse', 'settings'] as const).map((policy) => ({
        id: `session.peers.${policy}`,
        title: policy === 'settings' ? 'Messages from other sessions: as the settings say' : `Messages from other sessions: ${policy === 'hold' ? 'hold for me' : policy}`,
        run: () => void api.invoke('session.setPeerPolicy', { sessionId, policy }),
      })),
      {
        id: 'worktrees.archive',
        title: "Archive this session's worktree…",
        run: () => {
          useWorktrees.getState().choose({ sessionId })
          openView('worktrees')
        },
      },
      {
        id: 'timeline.replay',
        title: 'Replay this session',
        run: () => {
          if (!useTimeline.getState().shown) useTimeline.getState().toggle()
          void startReplay()
        },
      },
    )
  }
  for (const project of ctx.openProjects) {
    if (project.path !== path)
      commands.push({
        id: `project.switch.${project.path}`,
        title: `Switch to project ${project.name}`,
        run: () => useProjects.getState().activate(project.path),
      })
  }
  if (ctx.openProjects.length > 1)
    commands.push({
      id: 'project.close',
      title: `Close project ${current.name}`,
      run: () => useProjects.getState().closeProject(path),
    })
  return commands
}
