import { describe, expect, it } from 'vitest'
import { remoteTargetOf, splitRemote } from './remote-target'

describe('splitRemote', () => {
  it('takes a destination and a folder, or destination:/folder pasted in one field', () => {
    expect(splitRemote(' devbox ', ' /srv/app ')).toEqual({ destination: 'devbox', folder: '/srv/app' })
    expect(splitRemote('me@10.0.0.5:/home/me/app', '')).toEqual({ destination: 'me@10.0.0.5', folder: '/home/me/app' })
  })

  it('says what is wrong with a destination that could pass for an option, or a relative folder', () => {
    expect(splitRemote('-oProxyCommand=x', '/srv')).toContain('does not start with "-"')
    expect(splitRemote('dev box', '/srv')).toContain('no spaces')
    expect(splitRemote('devbox', 'srv/app')).toContain('absolute path')
    expect(splitRemote('', '/srv')).toContain('ssh destination')
  })
})

describe('remoteTargetOf', () => {
  const form = { destination: '', folder: '', command: '', named: [{ name: 'k8s', command: 'kubectl exec -i app -- sous' }] }
  it('builds each way in', () => {
    expect(remoteTargetOf({ ...form, way: 'ssh', destination: 'devbox:/srv/app' })).toEqual({ destination: 'devbox', folder: '/srv/app' })
    expect(remoteTargetOf({ ...form, way: 'devcontainer', destination: 'devbox', folder: '/srv/app' })).toEqual({ destination: 'devbox', folder: '/srv/app', transport: { kind: 'devcontainer' } })
    expect(remoteTargetOf({ ...form, way: 'devcontainer-local', folder: '/home/me/app' })).toEqual({ destination: 'devcontainer', folder: '/home/me/app', transport: { kind: 'devcontainer', local: true } })
    expect(remoteTargetOf({ ...form, way: 'command', destination: 'pod', folder: '/app', command: ' docker exec -i box sous ' })).toEqual({ destination: 'pod', folder: '/app', transport: { kind: 'command', command: 'docker exec -i box sous' } })
    // A named command of the settings: its name is the default name.
    expect(remoteTargetOf({ ...form, way: 'named:k8s', folder: '/app' })).toEqual({ destination: 'k8s', folder: '/app', transport: { kind: 'command', command: 'kubectl exec -i app -- sous' } })
  })
  it('says what is missing', () => {
    expect(remoteTargetOf({ ...form, way: 'command', destination: 'pod', folder: '/app' })).toContain('command that reaches Sous')
    expect(remoteTargetOf({ ...form, way: 'command', folder: '/app', command: 'x' })).toContain('name for this remote')
    expect(remoteTargetOf({ ...form, way: 'devcontainer-local', folder: 'app' })).toContain('workspace folder')
  })
})
