import { create } from 'zustand'
import type { FileChange, FileEntry } from '../../../../shared/ipc/contract'
import { api } from '../../api'

/** What the viewer shows: a project file or another document (read-only), or a session's combined diff. */
export type Viewing =
  | { kind: 'file'; root: string; path: string; text: string; binary: boolean; truncated: boolean }
  /** A text Sous read for the user from outside the project (a plan file), by its absolute path. */
  | { kind: 'document'; path: string; text: string; truncated: boolean }
  | { kind: 'changes'; sessionId: string }
  | null

export interface FilesState {
  /** Folder listings, by `root` then folder path ('' for the root). */
  folders: Record<string, Record<string, FileEntry[]>>
  /** Expanded folders, by `root`, as `root\u0000path` keys. */
  expanded: Record<string, true>
  /** What each session changed. */
  changes: Record<string, FileChange[]>
  viewing: Viewing
  error: string | null
  load(root: string, dir: string): Promise<void>
  toggle(root: string, dir: string): Promise<void>
  loadChanges(sessionId: string): Promise<void>
  openFile(root: string, path: string): Promise<void>
  showChanges(sessionId: string): Promise<void>
  /** Shows a text already read (the shell reads it: a plan file through `plan.read`). */
  showDocument(document: { path: string; text: string; truncated: boolean }): void
  close(): void
}

const key = (root: string, dir: string) => `${root}\u0000${dir}`

export const useFiles = create<FilesState>()((set, get) => ({
  folders: {},
  expanded: {},
  changes: {},
  viewing: null,
  error: null,

  async load(root, dir) {
    const result = await api.invoke('files.list', { root, dir })
    if (!result.ok) return set({ error: `Could not list ${dir || 'the project'}: ${result.error.message}` })
    set((state) => ({
      folders: { ...state.folders, [root]: { ...state.folders[root], [dir]: result.value } },
      error: null,
    }))
  },

  async toggle(root, dir) {
    const k = key(root, dir)
    if (get().expanded[k]) {
      const { [k]: _closed, ...rest } = get().expanded
      return set({ expanded: rest })
    }
    set((state) => ({ expanded: { ...state.expanded, [k]: true } }))
    await get().load(root, dir)
  },

  async loadChanges(sessionId) {
    const result = await api.invoke('session.changes', { sessionId })
    // A session that has not written its transcript yet has no changes.
    set((state) => ({ changes: { ...state.changes, [sessionId]: result.ok ? result.value : [] } }))
  },

  async openFile(root, path) {
    const result = await api.invoke('files.read', { root, path })
    if (!result.ok) return set({ error: `Could not open ${path}: ${result.error.message}` })
    set({ viewing: { kind: 'file', root, path, ...result.value }, error: null })
  },

  async showChanges(sessionId) {
    await get().loadChanges(sessionId)
    set({ viewing: { kind: 'changes', sessionId } })
  },

  showDocument(document) {
    set({ viewing: { kind: 'document', ...document } })
  },

  close() {
    set({ viewing: null })
  },
}))

/** Whether a folder is expanded. */
export function isExpanded(state: FilesState, root: string, dir: string): boolean {
  return state.expanded[key(root, dir)] === true
}
