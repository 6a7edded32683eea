import type { Handlers } from '../router'

/** What the desktop shell does with the inbox count (absent in the browser host). */
export interface BadgeShell {
  setBadgeCount(count: number): void
}

/** Handlers of the `app.*` channels. */
export function appHandlers(deps: { version: string; transport: 'electron' | 'browser' | 'stdio'; badge?: BadgeShell }): Pick<Handlers, 'app.info' | 'app.setBadgeCount'> {
  return {
    'app.info': () => ({ version: deps.version, platform: process.platform, transport: deps.transport }),
    'app.setBadgeCount': ({ count }) => {
      deps.badge?.setBadgeCount(count)
    },
  }
}
