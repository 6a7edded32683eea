import type { KeyStore } from '../../secrets/key-store'
import type { Handlers } from '../router'

/** Handlers of the `settings.*` channels. The key goes in; only its status comes out. */
export function settingsHandlers(deps: { keyStore: KeyStore }): Pick<Handlers, 'settings.setApiKey' | 'settings.apiKeyStatus'> {
  return {
    'settings.setApiKey': async ({ key }) => {
      await deps.keyStore.set(key.trim())
    },
    'settings.apiKeyStatus': () => deps.keyStore.status(),
  }
}
