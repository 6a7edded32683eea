import type { HookRun } from './types'

/** One hook firing, as the UI shows it. */
export interface HookLogEntry extends HookRun {
  at: number
  event: string
  matcher?: string
  command: string
  input: unknown
  /** The settings file the hook came from. */
  source?: string
  /** The project and session it ran for. */
  projectRoot?: string
  sessionId?: string
}

/** Bounded, readable record of every hook firing. */
export class HookLog {
  private readonly items: HookLogEntry[] = []
  private readonly listeners = new Set<(e: HookLogEntry) => void>()

  constructor(private readonly capacity = 500) {}

  /** Appends an entry (the oldest is dropped past capacity). */
  add(entry: HookLogEntry): void {
    this.items.push(entry)
    if (this.items.length > this.capacity) this.items.shift()
    for (const l of this.listeners) l(entry)
  }

  /** Entries, oldest first. */
  entries(): HookLogEntry[] {
    return [...this.items]
  }

  /** Called for every new entry; returns an unsubscribe function. */
  subscribe(listener: (e: HookLogEntry) => void): () => void {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }
}
