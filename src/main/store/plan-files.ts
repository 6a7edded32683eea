import { join } from 'node:path'
import { writeFileAtomic } from '../base/atomic-write'

/**
 * Plans live where Claude Code keeps them: `plans/` in its home (`~/.claude`, or
 * `CLAUDE_CONFIG_DIR`), one Markdown file per session, rewritten each time the agent proposes.
 */
export function plansDir(userHome: string, env: NodeJS.ProcessEnv): string {
  return join(env['CLAUDE_CONFIG_DIR']?.trim() || join(userHome, '.claude'), 'plans')
}

/** The plan file of a session. */
export function planFilePath(dir: string, sessionId: string): string {
  return join(dir, `${sessionId}.md`)
}

/** Writes a plan atomically (the folder is created when missing); a trailing newline is added. */
export function writePlanFile(path: string, markdown: string): Promise<void> {
  return writeFileAtomic(path, markdown.endsWith('\n') ? markdown : `${markdown}\n`, 0o644)
}
