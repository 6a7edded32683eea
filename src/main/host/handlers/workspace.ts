import { keepSettingsTrustAsync } from '../../governance/trust/trust'
import type { Handlers } from '../router'
import { FileSearch } from '../../workspace/file-search'
import { listFolder, readProjectFile } from '../../workspace/files'
import { endpointInUse } from '../../services/model/config'
import { readPreferences, updatePreferences } from '../../workspace/preferences'
import { readProjectSettings, writeProjectSettings } from '../../workspace/project-settings'
import { loadSession, searchSessions, sessionChanges, sessionMarkdown } from '../../workspace/session-docs'
import { sessionReplayHtml } from '../../workspace/session-replay'
import { existingDirectory } from './folders'

type WorkspaceChannels =
  | 'session.search'
  | 'session.export'
  | 'session.exportReplay'
  | 'session.changes'
  | 'files.list'
  | 'files.read'
  | 'files.search'
  | 'settings.get'
  | 'settings.endpoint'
  | 'settings.update'
  | 'projectSettings.read'
  | 'projectSettings.write'

/**
 * Handlers of the workspace around the conversation: stored-session search, export and changes
 * (read from transcripts, so they work without a running agent), the project's files, Sous's
 * preferences and the project's settings files.
 */
export function workspaceHandlers(deps: { sousHome: string; env?: NodeJS.ProcessEnv }): Pick<Handlers, WorkspaceChannels> {
  const fileSearch = new FileSearch()
  return {
    'session.search': async ({ query, projectPath }) =>
      searchSessions(
        deps.sousHome,
        query,
        projectPath === undefined ? undefined : await existingDirectory(projectPath),
      ),
    'session.export': async ({ sessionId }) => sessionMarkdown(await loadSession(deps.sousHome, sessionId)),
    'session.exportReplay': async ({ sessionId }) => sessionReplayHtml(deps.sousHome, await loadSession(deps.sousHome, sessionId)),
    'session.changes': async ({ sessionId }) => {
      const loaded = await loadSession(deps.sousHome, sessionId)
      return sessionChanges(loaded.events, loaded.projectPath)
    },
    'files.list': async ({ root, dir }) => listFolder(await existingDirectory(root), dir),
    'files.read': async ({ root, path }) => readProjectFile(await existingDirectory(root), path),
    'files.search': async ({ projectPath, query, limit }) =>
      fileSearch.search(await existingDirectory(projectPath), query, limit),
    'settings.get': () => readPreferences(deps.sousHome),
    'settings.endpoint': async () => endpointInUse(await readPreferences(deps.sousHome), deps.env ?? process.env),
    'settings.update': (changes) => updatePreferences(deps.sousHome, changes),
    'projectSettings.read': async ({ projectPath }) =>
      readProjectSettings(await existingDirectory(projectPath)),
    'projectSettings.write': async ({ projectPath, name, text }) => {
      const root = await existingDirectory(projectPath)
      // The user's own edit keeps a trusted project trusted; a change nobody reviewed still asks.
      return keepSettingsTrustAsync(root, deps.sousHome, () => writeProjectSettings(root, name, text))
    },
  }
}
