import { create } from 'zustand'
import type { Preferences, RequestOutput } from '../../../../shared/ipc/contract'
import { api } from '../../api'

/** What the settings dialog knows about the API key: only whether one is there. */
export interface KeyStatus {
  present: boolean
  source: 'keychain' | 'environment' | 'memory' | 'none'
  warning?: string
}

/** The model and endpoint new turns use, and where each comes from. */
export type EndpointInUse = RequestOutput<'settings.endpoint'>

export interface SettingsState {
  preferences: Preferences
  keyStatus: KeyStatus | null
  /** What is in use now (the environment may point elsewhere than the preferences say); null until read. */
  endpoint: EndpointInUse | null
  error: string | null
  /** A one-line confirmation after saving ("Saved."). */
  notice: string | null
  load(): Promise<void>
  /** Forgets the last confirmation and error (the dialog opens clean). */
  clearMessages(): void
  update(changes: Partial<Preferences>): Promise<boolean>
  /** Stores the key; it is never read back, only its status. */
  setApiKey(key: string): Promise<boolean>
}

export const useSettings = create<SettingsState>()((set) => ({
  preferences: { theme: 'system', fontSize: 13 },
  keyStatus: null,
  endpoint: null,
  error: null,
  notice: null,

  async load() {
    const [prefs, status, endpoint] = await Promise.all([
      api.invoke('settings.get', {}),
      api.invoke('settings.apiKeyStatus', {}),
      api.invoke('settings.endpoint', {}),
    ])
    set({
      ...(prefs.ok && { preferences: prefs.value }),
      ...(status.ok && { keyStatus: status.value }),
      ...(endpoint.ok && { endpoint: endpoint.value }),
      error: prefs.ok ? null : `Settings could not be read: ${prefs.error.message}`,
    })
  },

  clearMessages() {
    set({ notice: null, error: null })
  },

  async update(changes) {
    const result = await api.invoke('settings.update', changes)
    if (!result.ok) {
      set({ error: `Not saved: ${result.error.message}`, notice: null })
      return false
    }
    const endpoint = await api.invoke('settings.endpoint', {})
    set({ preferences: result.value, ...(endpoint.ok && { endpoint: endpoint.value }), error: null, notice: 'Saved.' })
    return true
  },

  async setApiKey(key) {
    const result = await api.invoke('settings.setApiKey', { key })
    if (!result.ok) {
      set({ error: `The key was not stored: ${result.error.message}`, notice: null })
      return false
    }
    const status = await api.invoke('settings.apiKeyStatus', {})
    set({ ...(status.ok && { keyStatus: status.value }), error: null, notice: 'API key stored.' })
    return true
  },
}))
