import { create } from 'zustand'
import type { MergePlanRow, ParallelRun, RequestOutput, SessionFileDiff, TestRunRow } from '../../../../shared/ipc/contract'
import { api } from '../../api'
import { countPicks, toPickInputs, withHunk, withPick, type FilePick, type Picks } from './picks'

type Plan = RequestOutput<'parallel.plan'>

/**
 * Parallel sessions (features/parallel): the project's runs, the run on screen with its sessions,
 * the file shown in the compare view, the user's picks, the merge preview with its resolutions
 * and confirmations, and the test runs. Talks to `parallel.*`; `parallel.changed` (from the event
 * feed) refreshes the run on screen.
 */
export interface ParallelState {
  projectPath: string | null
  runs: ParallelRun[]
  run: ParallelRun | null
  /** The session's file shown in the per-hunk diff. */
  shown: { sessionId: string; path: string } | null
  diff: SessionFileDiff | null
  picks: Picks
  plan: Plan | null
  resolutions: Readonly<Record<string, string>>
  confirmDirty: readonly string[]
  tests: { command: string; results: TestRunRow[] } | null
  busy: string | null
  error: string | null
  /** The last thing done, for the status line. */
  done: string | null
  load(projectPath: string): Promise<void>
  /**
   * Reads the project's runs quietly (no busy line, no error shown), at idle after the project
   * opens (the dialog's `warm`): the view's first open then paints at once from them while
   * {@link load} reads them again. Nothing once the store holds a project's runs.
   */
  prefetch(projectPath: string): Promise<void>
  start(prompt: string, models: string[]): Promise<void>
  select(runId: string): Promise<void>
  refresh(runId: string): Promise<void>
  show(sessionId: string, path: string): Promise<void>
  pickHunk(sessionId: string, path: string, index: number, decision: 'accepted' | 'rejected'): void
  pickFile(sessionId: string, path: string, pick: FilePick | undefined): void
  preview(): Promise<void>
  resolve(path: string, text: string | undefined): void
  confirm(path: string, on: boolean): void
  apply(): Promise<void>
  test(command: string): Promise<void>
}

/** Whether two answers hold the same rows (they are plain data from one JSON message each). */
function sameRows(a: unknown, b: unknown): boolean {
  return a === b || JSON.stringify(a) === JSON.stringify(b)
}

const FRESH = { run: null, shown: null, diff: null, picks: {}, plan: null, resolutions: {}, confirmDirty: [], tests: null, error: null, done: null } as const

/** The idle warm-up's read of a project's runs while it is under way (see `prefetch` and `load`). */
let prefetching: { projectPath: string; answer: ReturnType<typeof api.invoke<'parallel.runs'>> } | null = null

export const useParallel = create<ParallelState>()((set, get) => {
  /** Runs `work` with a busy label; its error goes to the store. */
  async function working<T>(label: string, work: () => Promise<{ ok: true; value: T } | { ok: false; error: { message: string } }>): Promise<T | undefined> {
    set({ busy: label, error: null })
    const result = await work()
    set({ busy: null })
    if (result.ok) return result.value
    set({ error: result.error.message })
    return undefined
  }
  return {
    projectPath: null,
    runs: [],
    ...FRESH,
    busy: null,
    async load(projectPath) {
      if (get().projectPath !== projectPath) set({ projectPath, runs: [], ...FRESH })
      // Opened at once after the project, while the idle warm-up's read is under way: the view
      // paints from that read when it comes, unless this one's answer came first.
      let answered = false
      const early = prefetching?.projectPath === projectPath ? prefetching.answer : undefined
      void early?.then((result) => {
        if (!result.ok || answered || get().projectPath !== projectPath || get().run !== null) return
        set({ runs: result.value, run: result.value[0] ?? null })
      })
      const runs = await working('Loading runs…', () => api.invoke('parallel.runs', { projectPath }))
      answered = true
      if (!runs || get().projectPath !== projectPath) return
      // The same rows as the early answer's (the usual case: both shared one read) keep their
      // objects, so the 4 × 50 cells on screen are not drawn a second time for nothing.
      set((now) => {
        const run = now.run ? (runs.find((row) => row.runId === now.run!.runId) ?? now.run) : (runs[0] ?? null)
        return { runs: sameRows(now.runs, runs) ? now.runs : runs, run: sameRows(now.run, run) ? now.run : run }
      })
    },
    async prefetch(projectPath) {
      if (get().projectPath !== null) return
      const answer = api.invoke('parallel.runs', { projectPath })
      prefetching = { projectPath, answer }
      const result = await answer.finally(() => {
        if (prefetching?.answer === answer) prefetching = null
      })
      // Opened (or another project chosen) meanwhile: load takes it from here.
      if (!result.ok || get().projectPath !== null) return
      set({ projectPath, runs: result.value, ...FRESH, run: result.value[0] ?? null })
    },
    async start(prompt, models) {
      const projectPath = get().projectPath
      if (!projectPath) return
      const run = await working(`Starting ${models.length} session${models.length === 1 ? '' : 's'}…`, () => api.invoke('parallel.start', { projectPath, prompt, models }))
      if (run) set((now) => ({ ...FRESH, run, runs: [run, ...now.runs.filter((other) => other.runId !== run.runId)], done: `Started ${run.sessions.length} worktree session${run.sessions.length === 1 ? '' : 's'}.` }))
    },
    async select(runId) {
      const chosen = get().runs.find((run) => run.runId === runId) ?? null
      set({ ...FRESH, run: chosen })
      await get().refresh(runId)
    },
    async refresh(runId) {
      const result = await api.invoke('parallel.run', { runId })
      if (!result.ok || get().run?.runId !== runId) return
      set((now) => ({ run: result.value, runs: now.runs.map((run) => (run.runId === runId ? result.value : run)) }))
    },
    async show(sessionId, path) {
      const run = get().run
      if (!run) return
      set({ shown: { sessionId, path }, diff: null })
      const diff = await working('Loading the diff…', () => api.invoke('parallel.diff', { runId: run.runId, sessionId, path }))
      if (diff && get().shown?.sessionId === sessionId && get().shown?.path === path) set({ diff })
    },
    pickHunk: (sessionId, path, index, decision) => set((now) => ({ picks: withHunk(now.picks, sessionId, path, index, decision), plan: null })),
    pickFile: (sessionId, path, pick) => set((now) => ({ picks: withPick(now.picks, sessionId, path, pick), plan: null })),
    async preview() {
      const { run, picks, resolutions } = get()
      if (!run) return
      const plan = await working('Previewing the merge…', () => api.invoke('parallel.plan', { runId: run.runId, picks: toPickInputs(picks), resolutions: { ...resolutions } }))
      if (plan) set({ plan, done: null })
    },
    resolve(path, text) {
      set((now) => {
        const resolutions = { ...now.resolutions }
        if (text === undefined) delete resolutions[path]
        else resolutions[path] = text
        return { resolutions }
      })
      void get().preview()
    },
    confirm: (path, on) => set((now) => ({ confirmDirty: on ? [...new Set([...now.confirmDirty, path])] : now.confirmDirty.filter((other) => other !== path) })),
    async apply() {
      const { run, picks, plan, resolutions, confirmDirty } = get()
      if (!run || !plan) return
      const fingerprints = Object.fromEntries(plan.files.map((file: MergePlanRow) => [file.path, file.fingerprint]))
      const outcome = await working('Applying…', () => api.invoke('parallel.apply', { runId: run.runId, picks: toPickInputs(picks), resolutions: { ...resolutions }, confirmDirty: [...confirmDirty], fingerprints }))
      if (!outcome) return
      const count = outcome.written.length + outcome.deleted.length
      const held = outcome.heldBack.length
      set({ ...FRESH, run, runs: get().runs, done: `Applied to the base: ${count} file${count === 1 ? '' : 's'} changed${held > 0 ? `, ${held} conflicting hunk${held === 1 ? '' : 's'} not applied` : ''}.` })
      void get().refresh(run.runId)
    },
    async test(command) {
      const run = get().run
      if (!run) return
      const results = await working('Running the tests in every worktree…', () => api.invoke('parallel.test', { runId: run.runId, command }))
      if (results) set({ tests: { command, results } })
    },
  }
})

/** How many hunks are picked now. */
export const usePickCount = () => useParallel((state) => countPicks(state.picks))

/** Refreshes the run on screen when the host says it changed (wired by `app/event-feed.ts`). */
export function receiveParallelChange({ runId }: { runId: string }): void {
  if (useParallel.getState().run?.runId === runId) void useParallel.getState().refresh(runId)
}
