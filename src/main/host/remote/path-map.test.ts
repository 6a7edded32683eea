import { describe, expect, it } from 'vitest'
import { createPathMap } from './path-map'
import { forwardable } from './remote-projects'

describe('createPathMap', () => {
  const map = createPathMap('devbox', '/srv/app')

  it('strips the prefix going out and adds it to paths under the folder coming back', () => {
    expect(map.toRemote({ root: 'ssh://devbox/srv/app', dir: 'src', list: ['ssh://devbox/srv/app/a.ts', '/local/b.ts'] })).toEqual({ root: '/srv/app', dir: 'src', list: ['/srv/app/a.ts', '/local/b.ts'] })
    expect(map.toLocal({ input: { file_path: '/srv/app/x.ts' }, other: '/srv/application', text: 'see /srv/app/x.ts' })).toEqual({ input: { file_path: 'ssh://devbox/srv/app/x.ts' }, other: '/srv/application', text: 'see /srv/app/x.ts' })
    expect(map.owns('ssh://devbox/srv/app')).toBe(true)
    expect(map.owns('ssh://devbox2/srv/app')).toBe(false)
    expect(map.owns('/srv/app')).toBe(false)
  })
})

describe('forwardable', () => {
  it('keeps the key, the endpoint, the preferences and the app here, whatever the payload', () => {
    for (const channel of ['settings.setApiKey', 'settings.apiKeyStatus', 'settings.update', 'app.info', 'remote.open', 'no.such']) expect(forwardable(channel)).toBe(false)
    for (const channel of ['session.prompt', 'files.list', 'pty.create', 'approval.reply', 'projectSettings.write']) expect(forwardable(channel)).toBe(true)
  })
})
