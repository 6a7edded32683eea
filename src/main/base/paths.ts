import { homedir } from 'node:os'
import { join, resolve } from 'node:path'

/** `$SOUS_HOME`, default `~/.sous`: user settings, credentials, recent projects, per-project data. */
export function sousHome(env: NodeJS.ProcessEnv = process.env): string {
  return resolve(env.SOUS_HOME || join(homedir(), '.sous'))
}

/**
 * A folder-safe, stable name for a project path (as Claude Code does: every character that is
 * not alphanumeric becomes `-`), e.g. `/home/me/app` → `-home-me-app`.
 */
export function projectSlug(projectPath: string): string {
  return resolve(projectPath).replace(/[^A-Za-z0-9]/g, '-')
}

/** `$SOUS_HOME/projects/<slug>`: transcripts, tool results, memory, tasks of one project. */
export function projectDataDir(home: string, projectPath: string): string {
  return join(home, 'projects', projectSlug(projectPath))
}

/**
 * `<projectDataDir>/tool-results/<sessionId>`: where a session's results too large for the
 * conversation are saved. The session may read them back without asking (governance).
 */
export function toolResultsDir(projectDataDir: string, sessionId: string): string {
  return join(projectDataDir, 'tool-results', sessionId.replace(/[^A-Za-z0-9_-]/g, '_'))
}
