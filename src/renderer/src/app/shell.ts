import type { ReactNode } from 'react'
import type { Project } from '../../../shared/ipc/contract'
import type { Command } from '../features/palette/match'

/**
 * The shapes the shell is built from: what a view gets to render with, what a view is, and what a
 * palette command is. The registries (`views.tsx`, `slash-commands.ts`, `commands.ts`) are lists
 * of these; `App.tsx` only lays them out.
 */

/** What the shell knows that views need; features receive what they use of it as props. */
export interface ShellContext {
  /** The project on screen, if any. */
  project: Project | null
  /** The session the chat shows for that project (null before its first prompt). */
  sessionId: string | null
  dark: boolean
  fontSize: number
  /** Shows a session in the chat; `projectPath` is its project (search finds other projects' too). */
  openSession(sessionId: string, projectPath: string): void
  /** Shows a session just created in another folder (a new worktree session), opening that folder's tab. */
  openStartedSession(sessionId: string, projectPath: string): void
  /** Starts over in the chat of the project on screen. */
  newSession(): void
}

/** The context of views that exist only with a project open. */
export interface ProjectContext extends ShellContext {
  project: Project
}

/** A global key, `mod` being Ctrl (Cmd on macOS). */
export interface KeyBinding {
  key: string
  mod?: boolean
  shift?: boolean
  alt?: boolean
}

/** A palette command, with the global shortcut that runs it too (if any). */
export interface AppCommand extends Command {
  binding?: KeyBinding
}

/** How a view shows in the palette: its title there, its keys, where focus goes (sidebar views). */
export interface ViewCommand {
  /** Defaults to "Open <title>" for a dialog and "Show <title>" for a sidebar view. */
  title?: string
  /** The label the palette shows and the binding it runs on. */
  keys?: { label: string; binding: KeyBinding }
  /** Sidebar views: the element to focus (the view's first focusable element by default). */
  focus?: string
}

/** A section of the project sidebar; its root element is labelled `title` (a region). */
export interface SidebarView {
  id: string
  placement: 'sidebar'
  title: string
  command?: ViewCommand
  render(context: ProjectContext): ReactNode
}

/** A modal dialog opened by name (palette, shortcut, slash command, `openView(id)`). */
export interface DialogView {
  id: string
  placement: 'dialog'
  title: string
  command?: ViewCommand
  /** `close` closes this view; the view is mounted only while open (and can be lazy). */
  render(context: ShellContext & { close(): void }): ReactNode
  /**
   * Fetches at idle what the first open would otherwise wait for (the view's chunk; data the main
   * side can cache for the project on screen). Runs after the first paint, and again when the
   * project changes; must be cheap to repeat and never throw.
   */
  warm?(projectPath: string | null): void
  /**
   * The lazy component `render` shows, when it is one: opened before its chunk is in, the host
   * shows nothing until it arrives and then mounts the view (`ChunkGate`), rather than letting
   * it suspend — React holds a suspended dialog back for up to 300 ms after its fallback.
   */
  chunk?: { loaded(): boolean; preload(): Promise<void> }
}

/** Always mounted; shows itself when its own state says so (the file viewer, the drop target). */
export interface OverlayView {
  id: string
  placement: 'overlay'
  render(context: ShellContext): ReactNode
}

/** One entry of the view registry. */
export type View = SidebarView | DialogView | OverlayView
