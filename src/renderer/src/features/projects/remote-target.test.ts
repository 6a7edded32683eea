import { describe, expect, it } from 'vitest'
import { splitRemote } from './remote-target'

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
