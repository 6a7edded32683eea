import { AppError } from '../../../shared/ipc/result'
import type { RemoteProjects } from '../remote/remote-projects'
import type { Handlers } from '../router'

/** `remote.*`: opening projects on other machines; UNAVAILABLE where the host has none (a remote host itself). */
export function remoteHandlers(deps: { remotes?: RemoteProjects }): Pick<Handlers, 'remote.open' | 'remote.recent'> {
  const remotes = (): RemoteProjects => {
    if (!deps.remotes) throw new AppError('UNAVAILABLE', 'This host cannot open remote projects.')
    return deps.remotes
  }
  return {
    'remote.open': (target) => remotes().open(target),
    'remote.recent': () => remotes().recent(),
  }
}
