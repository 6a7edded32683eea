import { create } from 'zustand'

/** Where the terminal is in its life. */
export type TerminalStatus = 'starting' | 'running' | 'exited' | 'failed'

export interface TerminalState {
  status: TerminalStatus
  /** Exit code once `exited`; the reason once `failed`. */
  exitCode: number | null
  error: string | null
  /** Bumped to start a fresh shell after the old one exited. */
  generation: number
  starting(): void
  started(): void
  exited(exitCode: number): void
  failed(message: string): void
  restart(): void
}

export const useTerminal = create<TerminalState>()((set) => ({
  status: 'starting',
  exitCode: null,
  error: null,
  generation: 0,
  starting: () => set({ status: 'starting', exitCode: null, error: null }),
  started: () => set({ status: 'running' }),
  exited: (exitCode) => set({ status: 'exited', exitCode }),
  failed: (message) => set({ status: 'failed', error: message }),
  restart: () => set((state) => ({ generation: state.generation + 1 })),
}))
