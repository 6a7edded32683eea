import type { SessionParts } from '../../src/main/session/live-session'

/**
 * Session parts with nothing but an environment (no gate, no task list, nothing to free): for
 * tests of the session layer on its own, where the runtime's parts would only be in the way.
 */
export function bareParts(environment: (projectPath: string, sessionId: string) => SessionParts['environment']): (projectPath: string, sessionId: string) => SessionParts {
  return (projectPath, sessionId) => ({ environment: environment(projectPath, sessionId) })
}
