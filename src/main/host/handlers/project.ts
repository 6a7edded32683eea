import { AppError } from '../../../shared/ipc/result'
import type { RecentProjects } from '../../projects/recent-projects'
import type { Handlers } from '../router'
import { existingDirectory } from './folders'

/** Asks the OS for a folder; resolves `null` when the user cancels. */
export type PickFolder = () => Promise<string | null>

/** Handlers of the `project.*` channels. */
export function projectHandlers(deps: {
  recent: RecentProjects
  /** The desktop's folder dialog; absent in the browser host. */
  pickFolder?: PickFolder
  /** Told of each project opened, once it is (not awaited: the reply does not wait for it). */
  onOpened?: (path: string) => void
}): Pick<Handlers, 'project.open' | 'project.recent' | 'project.pick'> {
  const open = async (path: string) => {
    const project = await deps.recent.add(await existingDirectory(path))
    deps.onOpened?.(project.path)
    return project
  }
  return {
    'project.open': ({ path }) => open(path),
    'project.recent': () => deps.recent.list(),
    'project.pick': async () => {
      if (!deps.pickFolder) {
        throw new AppError('UNAVAILABLE', 'Choosing a folder needs the desktop app; type or paste its path instead.')
      }
      const path = await deps.pickFolder()
      return path === null ? null : open(path)
    },
  }
}
