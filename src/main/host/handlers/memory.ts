import type { MemoryActivity } from '../../../shared/ipc/memory'
import type { MemoryService } from '../../memory/service'
import { summarize } from '../../store/session-index'
import { loadTranscript, transcriptPath } from '../../store/transcript'
import type { Handlers } from '../router'
import { existingDirectory } from './folders'

type MemoryChannels = 'memory.list' | 'memory.save' | 'memory.rename' | 'memory.delete' | 'memory.undo' | 'memory.decide' | 'memory.activity' | 'memory.prompt'

/** Sessions named in one memory's activity at most (the browser shows the newest). */
const MAX_ACTIVITY = 50

/**
 * Handlers of the memory browser. Project paths must be existing folders (canonical, so one
 * project is one memory folder); file names are checked again by the memory folder itself.
 */
export function memoryHandlers(deps: { memory: MemoryService; sousHome: string }): Pick<Handlers, MemoryChannels> {
  const { memory } = deps
  return {
    'memory.list': async ({ projectPath }) => memory.list(await existingDirectory(projectPath)),
    'memory.save': async ({ projectPath, scope, file, version, fields }) => memory.save(await existingDirectory(projectPath), scope, file, version, fields),
    'memory.rename': async ({ projectPath, scope, file, version, name }) => memory.rename(await existingDirectory(projectPath), scope, file, version, name),
    'memory.delete': async ({ projectPath, scope, file, version }) => memory.delete(await existingDirectory(projectPath), scope, file, version),
    'memory.undo': ({ changeId }) => memory.undo(changeId),
    'memory.decide': ({ proposalId, accept }) => memory.decide(proposalId, accept),
    'memory.activity': async ({ projectPath, scope, file }) => {
      const entries = (await memory.activityOf(await existingDirectory(projectPath), scope, file)).slice(0, MAX_ACTIVITY)
      const titles = new Map<string, Promise<string | undefined>>()
      const titleOf = (sessionId: string, path: string) => {
        if (!titles.has(sessionId)) titles.set(sessionId, loadTranscript(transcriptPath(deps.sousHome, path, sessionId)).then((loaded) => (loaded ? summarize(loaded).title : undefined)))
        return titles.get(sessionId)!
      }
      return Promise.all(
        entries.map(async (entry): Promise<MemoryActivity> => {
          const title = await titleOf(entry.sessionId, entry.projectPath)
          return { sessionId: entry.sessionId, projectPath: entry.projectPath, action: entry.action, at: entry.at, ...(title !== undefined && { title }) }
        }),
      )
    },
    'memory.prompt': async ({ projectPath }) => {
      const canonical = await existingDirectory(projectPath)
      const [text, listed] = await Promise.all([memory.renderPromptSection(canonical), memory.list(canonical)])
      return { text, folders: listed.folders, enabled: memory.preferences().autoMemory }
    },
  }
}
