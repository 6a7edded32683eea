import { create } from 'zustand'
import type { TrustStatus } from '../../../../shared/ipc/contract'
import { api } from '../../api'

/** A trusted folder, as Settings lists it. */
export interface TrustedFolder {
  projectPath: string
  trustedAt: string
}

/** The trust step in this window: the dialog, what the user declined, and the trusted folders. */
export interface TrustState {
  /** The folder the dialog shows; null when it is closed. */
  shown: TrustStatus | null
  busy: boolean
  error: string | null
  /** Folders the user chose not to trust, by the fingerprint they saw: not asked again until it changes. */
  declined: Record<string, string>
  trusted: TrustedFolder[]
  /** Asks about the folder when it has configuration that is not trusted (as it is now) and was not declined. */
  check(projectPath: string): Promise<void>
  /** Shows the folder's trust whatever its state (the palette's "Review project trust…"). */
  review(projectPath: string): Promise<void>
  /** Trusts exactly what is shown. */
  trust(): Promise<void>
  /** Closes the dialog without trusting; the folder's own configuration stays ignored. */
  decline(): void
  loadTrusted(): Promise<void>
  revoke(projectPath: string): Promise<void>
}

export const useTrust = create<TrustState>()((set, get) => ({
  shown: null,
  busy: false,
  error: null,
  declined: {},
  trusted: [],

  async check(projectPath) {
    const result = await api.invoke('trust.status', { projectPath })
    // A folder that cannot be read is reported where it was opened; nothing to ask here.
    if (!result.ok) return
    const status = result.value
    if (status.state === 'trusted' && get().shown?.projectPath === status.projectPath)
      return set({ shown: null })
    if (!status.needsReview || get().declined[status.projectPath] === status.fingerprint) return
    set({ shown: status, error: null })
  },

  async review(projectPath) {
    const result = await api.invoke('trust.status', { projectPath })
    set(result.ok ? { shown: result.value, error: null } : { error: result.error.message })
  },

  async trust() {
    const shown = get().shown
    if (!shown || get().busy) return
    set({ busy: true, error: null })
    const result = await api.invoke('trust.grant', {
      projectPath: shown.projectPath,
      fingerprint: shown.fingerprint,
    })
    if (result.ok) {
      set({ busy: false, shown: null })
      void get().loadTrusted()
      return
    }
    if (result.error.code === 'CONFLICT') {
      // The files changed while the dialog was open: show what they hold now.
      const fresh = await api.invoke('trust.status', { projectPath: shown.projectPath })
      set({
        busy: false,
        shown: fresh.ok ? fresh.value : shown,
        error: 'The project\u2019s files changed while this was open. Review what they hold now.',
      })
      return
    }
    set({ busy: false, error: result.error.message })
  },

  decline() {
    const shown = get().shown
    if (!shown) return
    set({ shown: null, error: null, declined: { ...get().declined, [shown.projectPath]: shown.fingerprint } })
  },

  async loadTrusted() {
    const result = await api.invoke('trust.list', {})
    if (result.ok) set({ trusted: result.value })
  },

  async revoke(projectPath) {
    const result = await api.invoke('trust.revoke', { projectPath })
    if (!result.ok) return set({ error: result.error.message })
    const { [projectPath]: _forgotten, ...declined } = get().declined
    set({ declined })
    await get().loadTrusted()
  },
}))
