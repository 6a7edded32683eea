import type { Handlers } from '../router'

/** Handlers of the `app.*` channels. */
export function appHandlers(deps: { version: string; transport: 'electron' | 'browser' }): Pick<Handlers, 'app.info'> {
  return {
    'app.info': () => ({ version: deps.version, platform: process.platform, transport: deps.transport }),
  }
}
