import { create } from 'zustand'
import type { MemoryActivity, MemoryChange, MemoryDocument, MemoryFolderInfo, MemoryProposal } from '../../../../shared/ipc/contract'
import type { MemoryFields, MemoryScope } from '../../../../shared/memory'
import { api } from '../../api'
import { memoryKey, searchable, type Searchable } from './rows'

/**
 * The memory browser's state: the project's two folders and their memories, what is open in the
 * editor (a memory, a new one, or the index), the draft being edited, and the memories the agent
 * just wrote (highlighted, with undo). It follows `memory.changed` for the project on screen from
 * the shell's prefetch at idle on, open or closed, so a write by the agent shows at once.
 */

/** What the editor shows. */
export type Selection = { kind: 'memory'; scope: MemoryScope; file: string } | { kind: 'new'; scope: MemoryScope } | { kind: 'index' } | null

/** The memory being edited: its fields, and the file version it was opened at. */
export interface Draft {
  scope: MemoryScope
  /** Absent for a new memory. */
  file?: string
  version?: string
  fields: MemoryFields
  dirty: boolean
  /** The file changed (or went away) on disk since it was opened. */
  conflict?: 'changed' | 'deleted'
}

/** A recent change that can be undone from the list (the agent's writes, a deletion). */
export interface Undoable {
  changeId: string
  label: string
  by: 'agent' | 'user'
}

export interface MemoryState {
  /** The project the browser is open on (null while closed). */
  projectPath: string | null
  /** The project whose memories the store holds and follows (by a prefetch or an open; kept on close). */
  followed: string | null
  folders: MemoryFolderInfo[]
  memories: MemoryDocument[]
  items: Searchable[]
  proposals: MemoryProposal[]
  query: string
  selection: Selection
  draft: Draft | null
  /** By memory key: the agent's latest write to it, highlighted until undone or opened. */
  highlights: Record<string, Undoable>
  /** The last thing the user deleted, for "Undo". */
  lastDeleted: Undoable | null
  activity: MemoryActivity[]
  prompt: string | null
  /** Whether sessions get the memory section (memory is on). */
  promptEnabled: boolean
  error: string | null
  notice: string | null

  open(projectPath: string): Promise<void>
  /** Lists and follows a project's memories while closed (at idle): the first open shows them at once. */
  prefetch(projectPath: string): Promise<void>
  close(): void
  refresh(): Promise<void>
  setQuery(query: string): void
  select(selection: Selection): void
  edit(fields: Partial<MemoryFields>): void
  save(): Promise<boolean>
  rename(name: string): Promise<boolean>
  remove(): Promise<boolean>
  undo(changeId: string): Promise<void>
  decide(proposalId: string, accept: boolean): Promise<void>
  /** Drops the draft for the file as it is on disk now. */
  reloadDraft(): Promise<void>
  /** Keeps the draft and takes the file's new version as the base: the next save overwrites knowingly. */
  keepDraft(): Promise<void>
}

const EMPTY_FIELDS: MemoryFields = { name: '', description: '', type: 'project', body: '' }

/**
 * The followed project's first list: a change announced while it is in flight waits for the
 * folders it brings (it was dropped, and an agent write showed without its highlight and Undo).
 */
let firstList: Promise<void> = Promise.resolve()

/** Starts following `projectPath` (the store's memories are another project's until it lists). */
function follow(projectPath: string): Promise<void> {
  useMemory.setState({ followed: projectPath, folders: [], memories: [], items: [], proposals: [], highlights: {} })
  firstList = useMemory.getState().refresh()
  return firstList
}

export const useMemory = create<MemoryState>()((set, get) => ({
  projectPath: null,
  followed: null,
  folders: [],
  memories: [],
  items: [],
  proposals: [],
  query: '',
  selection: null,
  draft: null,
  highlights: {},
  lastDeleted: null,
  activity: [],
  prompt: null,
  promptEnabled: true,
  error: null,
  notice: null,

  async open(projectPath) {
    set({ projectPath, selection: null, draft: null, query: '', lastDeleted: null, prompt: null, error: null, notice: null })
    // A project already followed shows what it has at once; either way the list is fetched anew.
    if (get().followed !== projectPath) return follow(projectPath)
    await get().refresh()
  },

  async prefetch(projectPath) {
    // Open (it follows its project), or following this one already.
    if (get().projectPath || get().followed === projectPath) return
    await follow(projectPath)
  },

  close() {
    set({ projectPath: null, selection: null, draft: null })
  },

  async refresh() {
    const projectPath = get().followed
    if (!projectPath) return
    const listed = await api.invoke('memory.list', { projectPath })
    if (get().followed !== projectPath) return // another project followed meanwhile
    // Listing fails loudly only while the browser is open; a prefetch leaves it to the open.
    if (!listed.ok) return get().projectPath ? set({ error: `The memories could not be listed: ${listed.error.message}` }) : undefined
    const { folders, memories, proposals } = listed.value
    set({ folders, memories, proposals, items: searchable(memories), error: null })
    followDisk()
    if (get().selection?.kind === 'index') void loadPrompt()
  },

  setQuery: (query) => set({ query }),

  select(selection) {
    set({ selection, activity: [], notice: null, error: null })
    if (selection?.kind === 'memory') {
      const memory = findMemory(selection.scope, selection.file)
      set({ draft: memory ? draftOf(memory) : null })
      if (memory) void loadActivity(memory)
    } else if (selection?.kind === 'new') {
      set({ draft: { scope: selection.scope, fields: { ...EMPTY_FIELDS }, dirty: false } })
    } else {
      set({ draft: null })
      if (selection?.kind === 'index') void loadPrompt()
    }
  },

  edit(fields) {
    const draft = get().draft
    if (draft) set({ draft: { ...draft, fields: { ...draft.fields, ...fields }, dirty: true }, notice: null })
  },

  async save() {
    const { draft, projectPath } = get()
    if (!draft || !projectPath) return false
    const result = await api.invoke('memory.save', {
      projectPath,
      scope: draft.scope,
      fields: draft.fields,
      ...(draft.file !== undefined && { file: draft.file, version: draft.version }),
    })
    if (!result.ok) {
      set({ error: `Not saved: ${result.error.message}` })
      if (result.error.code === 'CONFLICT' && draft.file) {
        set({ draft: { ...draft, conflict: 'changed' } })
        // Learn what is on disk now, for "load the version on disk" or "keep my edits".
        await get().refresh()
      }
      return false
    }
    const saved = result.value.memory
    set({ draft: draftOf(saved), selection: { kind: 'memory', scope: saved.scope, file: saved.file }, notice: 'Saved.', error: null })
    await get().refresh()
    return true
  },

  async rename(name) {
    const { draft, projectPath } = get()
    if (!draft?.file || !draft.version || !projectPath) return false
    const result = await api.invoke('memory.rename', { projectPath, scope: draft.scope, file: draft.file, version: draft.version, name })
    if (!result.ok) {
      set({ error: `Not renamed: ${result.error.message}` })
      return false
    }
    const renamed = result.value.memory
    set({ draft: draftOf(renamed), selection: { kind: 'memory', scope: renamed.scope, file: renamed.file }, notice: `Renamed to ${renamed.file}.`, error: null })
    await get().refresh()
    return true
  },

  async remove() {
    const { draft, projectPath } = get()
    if (!draft?.file || !draft.version || !projectPath) return false
    const result = await api.invoke('memory.delete', { projectPath, scope: draft.scope, file: draft.file, version: draft.version })
    if (!result.ok) {
      set({ error: `Not deleted: ${result.error.message}` })
      return false
    }
    set({ selection: null, draft: null, lastDeleted: { changeId: result.value.changeId, label: draft.fields.name || draft.file, by: 'user' }, notice: null, error: null })
    await get().refresh()
    return true
  },

  async undo(changeId) {
    const result = await api.invoke('memory.undo', { changeId })
    if (!result.ok) return set({ error: `Not undone: ${result.error.message}` })
    const highlights = Object.fromEntries(Object.entries(get().highlights).filter(([, undoable]) => undoable.changeId !== changeId))
    set({ highlights, lastDeleted: get().lastDeleted?.changeId === changeId ? null : get().lastDeleted, notice: 'Undone.', error: null })
    await get().refresh()
  },

  async decide(proposalId, accept) {
    const result = await api.invoke('memory.decide', { proposalId, accept })
    if (!result.ok) return set({ error: `${accept ? 'Not saved' : 'Not dismissed'}: ${result.error.message}` })
    await get().refresh()
  },

  async reloadDraft() {
    await get().refresh()
    const draft = get().draft
    const memory = draft?.file ? findMemory(draft.scope, draft.file) : undefined
    set({ draft: memory ? draftOf(memory) : null, selection: memory ? get().selection : null, error: null })
  },

  async keepDraft() {
    await get().refresh()
    const draft = get().draft
    const memory = draft?.file ? findMemory(draft.scope, draft.file) : undefined
    if (!draft) return
    // Deleted on disk: saving writes it as a new file of the same name.
    if (!memory) return set({ draft: { scope: draft.scope, fields: draft.fields, dirty: true }, error: null })
    set({ draft: { ...draft, version: memory.version, conflict: undefined }, error: null })
  },
}))

/** `memory.changed` (fed by `app/event-feed.ts`): a change in a followed folder refreshes the list, marking the agent's writes. */
export async function receiveMemoryChange(change: MemoryChange): Promise<void> {
  if (!useMemory.getState().followed) return
  await firstList.catch(() => undefined) // a failed list says so itself; the change is then not ours to show
  const state = useMemory.getState()
  if (!state.folders.some((folder) => folder.dir === change.dir)) return
  const key = memoryKey(change.scope, change.file)
  if (change.by === 'agent' && change.changeId && (change.change === 'created' || change.change === 'updated')) {
    useMemory.setState({ highlights: { ...state.highlights, [key]: { changeId: change.changeId, label: change.name ?? change.file, by: 'agent' } } })
  } else if ((change.change === 'undone' || change.change === 'deleted') && state.highlights[key]) {
    // Undone from the chat while the browser was closed, say: its Undo here would only fail.
    useMemory.setState({ highlights: Object.fromEntries(Object.entries(state.highlights).filter(([highlighted]) => highlighted !== key)) })
  }
  await state.refresh()
}

/** After a refresh: an open memory that changed on disk reloads if untouched, or is flagged if edited. */
function followDisk(): void {
  const { draft } = useMemory.getState()
  if (!draft?.file || !draft.version) return
  const memory = findMemory(draft.scope, draft.file)
  if (!memory) return useMemory.setState({ draft: { ...draft, conflict: 'deleted' } })
  if (memory.version === draft.version) return
  if (!draft.dirty) return useMemory.setState({ draft: draftOf(memory) })
  useMemory.setState({ draft: { ...draft, conflict: 'changed' } })
}

function findMemory(scope: MemoryScope, file: string): MemoryDocument | undefined {
  return useMemory.getState().memories.find((memory) => memory.scope === scope && memory.file === file)
}

function draftOf(memory: MemoryDocument): Draft {
  return {
    scope: memory.scope,
    file: memory.file,
    version: memory.version,
    fields: { name: memory.name, description: memory.description, type: memory.type, body: memory.body },
    dirty: false,
  }
}

async function loadActivity(memory: MemoryDocument): Promise<void> {
  const projectPath = useMemory.getState().projectPath
  if (!projectPath) return
  const result = await api.invoke('memory.activity', { projectPath, scope: memory.scope, file: memory.file })
  const selection = useMemory.getState().selection
  if (result.ok && selection?.kind === 'memory' && selection.file === memory.file && selection.scope === memory.scope) useMemory.setState({ activity: result.value })
}

async function loadPrompt(): Promise<void> {
  const projectPath = useMemory.getState().projectPath
  if (!projectPath) return
  const result = await api.invoke('memory.prompt', { projectPath })
  useMemory.setState(result.ok ? { prompt: result.value.text, folders: result.value.folders, promptEnabled: result.value.enabled } : { error: `The index could not be read: ${result.error.message}` })
}
