import { stat } from 'node:fs/promises'
import { dirname, join } from 'node:path'

/** Facts about where the agent runs, for the dynamic part of the system prompt. */
export interface EnvironmentInfo {
  cwd: string
  platform: string
  /** YYYY-MM-DD in local time. */
  date: string
  isGitRepo: boolean
}

/** Collects the environment facts; `now` is injectable so tests are stable. */
export async function environmentInfo(cwd: string, now = new Date()): Promise<EnvironmentInfo> {
  return { cwd, platform: process.platform, date: localDate(now), isGitRepo: await insideGitRepo(cwd) }
}

/** Renders the environment block (`git: false` leaves out the repository line). */
export function renderEnvironment(info: EnvironmentInfo, options: { git?: boolean } = {}): string {
  return [
    '# Environment',
    `Working directory: ${info.cwd}`,
    ...(options.git === false ? [] : [`Is a git repository: ${info.isGitRepo ? 'yes' : 'no'}`]),
    `Platform: ${info.platform}`,
    `Today's date: ${info.date}`,
  ].join('\n')
}

/** True when `dir` or an ancestor holds `.git` (a folder, or a file for worktrees). */
async function insideGitRepo(dir: string): Promise<boolean> {
  for (let current = dir; ; current = dirname(current)) {
    if (await exists(join(current, '.git'))) return true
    if (dirname(current) === current) return false
  }
}

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  )
}

function localDate(now: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0')
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`
}
