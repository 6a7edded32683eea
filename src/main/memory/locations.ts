import { readFile, realpath, stat } from 'node:fs/promises'
import { homedir } from 'node:os'
import { basename, dirname, isAbsolute, join, resolve } from 'node:path'

/**
 * Where memories live. The project's memory is Claude Code's auto-memory folder, so memories carry
 * over between the two tools (its docs, "Storage location"): `~/.claude/projects/<project>/memory/`,
 * where `<project>` comes from the repository's root — every worktree and subfolder of one
 * repository shares it — or from the project folder outside git; `autoMemoryDirectory` in the
 * user's Claude Code settings moves it (never a project's own settings: a cloned repository must
 * not redirect where memories are written). The user's memory (every project) has no Claude Code
 * counterpart and lives in `$SOUS_HOME/memory/`. Sous's `memoryLocation: "sous"` preference moves
 * the project's memory under `$SOUS_HOME/projects/<project>/memory/` instead.
 */

/** Where project memories go: Claude Code's folder (shared with it) or Sous's own. */
export type MemoryPlace = 'claude' | 'sous'

export interface MemoryLocationOptions {
  /** The project folder (any folder inside the repository). */
  projectPath: string
  /** `$SOUS_HOME`. */
  sousHome: string
  place?: MemoryPlace
  /** The environment (`CLAUDE_CONFIG_DIR`, `HOME`); tests point these at temp folders. */
  env?: NodeJS.ProcessEnv
  /** The user's home (for `~/` in `autoMemoryDirectory`). */
  home?: string
}

/** The two memory folders of a project, and where they came from. */
export interface MemoryFolders {
  user: string
  project: string
  /** The folder the project's memory is keyed by: the repository's main root, or the project. */
  projectRoot: string
  /** Why the project folder is where it is, for the browser. */
  projectSource: 'claude' | 'autoMemoryDirectory' | 'sous'
}

/** Resolves both folders. Never throws for a missing settings file or an odd `.git`. */
export async function memoryFolders(options: MemoryLocationOptions): Promise<MemoryFolders> {
  const env = options.env ?? process.env
  const home = options.home ?? homedir()
  const projectRoot = await repositoryRoot(options.projectPath)
  const user = join(options.sousHome, 'memory')
  if (options.place === 'sous') {
    return { user, project: join(options.sousHome, 'projects', projectFolderName(projectRoot), 'memory'), projectRoot, projectSource: 'sous' }
  }
  const claudeHome = claudeConfigDir(env, home)
  const custom = await autoMemoryDirectory(claudeHome, home)
  if (custom) return { user, project: custom, projectRoot, projectSource: 'autoMemoryDirectory' }
  return { user, project: join(claudeHome, 'projects', projectFolderName(projectRoot), 'memory'), projectRoot, projectSource: 'claude' }
}

/** Claude Code's configuration folder: `$CLAUDE_CONFIG_DIR`, else `~/.claude`. */
export function claudeConfigDir(env: NodeJS.ProcessEnv, home: string): string {
  const configured = env['CLAUDE_CONFIG_DIR']?.trim()
  return configured ? resolve(configured) : join(home, '.claude')
}

/**
 * Claude Code's folder name for a project: every character that is not an ASCII letter or digit
 * becomes `-` (`/home/me/app` → `-home-me-app`). Claude Code cuts names over 200 characters and
 * appends a hash; ours is a stable hash of the same kind, which may not match its spelling for
 * such long paths (rare; the folder is then simply Sous's own).
 */
export function projectFolderName(projectRoot: string): string {
  const name = projectRoot.replace(/[^a-zA-Z0-9]/g, '-')
  if (name.length <= 200) return name
  let hash = 0
  for (let index = 0; index < projectRoot.length; index++) hash = (Math.imul(hash, 31) + projectRoot.charCodeAt(index)) | 0
  return `${name.slice(0, 200)}-${Math.abs(hash).toString(36)}`
}

/**
 * The root every worktree of a repository shares: for a linked worktree (`.git` is a file naming a
 * `worktrees/<name>` folder with a `commondir`), the main worktree's folder; otherwise the folder
 * holding `.git`; outside git, the project folder itself. Symlinks are resolved first, as a shell's
 * working directory would be.
 */
export async function repositoryRoot(projectPath: string): Promise<string> {
  const start = await realpath(projectPath).catch(() => resolve(projectPath))
  for (let folder = start; ; folder = dirname(folder)) {
    const dotGit = join(folder, '.git')
    const info = await stat(dotGit).catch(() => undefined)
    if (info?.isDirectory()) return folder
    if (info?.isFile()) return (await mainWorktree(folder, dotGit)) ?? folder
    if (dirname(folder) === folder) return start
  }
}

async function mainWorktree(folder: string, dotGitFile: string): Promise<string | undefined> {
  const text = await readFile(dotGitFile, 'utf8').catch(() => '')
  const pointer = /^gitdir:\s*(.+)$/m.exec(text)?.[1]?.trim()
  if (!pointer) return undefined
  const gitDir = resolve(folder, pointer)
  const common = (await readFile(join(gitDir, 'commondir'), 'utf8').catch(() => '')).trim()
  if (!common) return undefined // a submodule: its own folder is its root
  const commonDir = resolve(gitDir, common)
  return basename(commonDir) === '.git' ? dirname(commonDir) : undefined
}

/**
 * `autoMemoryDirectory` from the user's Claude Code settings (`<config>/settings.json`): an
 * absolute path or one starting with `~/`; anything else, or an unreadable file, is ignored.
 */
async function autoMemoryDirectory(claudeHome: string, home: string): Promise<string | undefined> {
  let value: unknown
  try {
    value = (JSON.parse(await readFile(join(claudeHome, 'settings.json'), 'utf8')) as Record<string, unknown>)['autoMemoryDirectory']
  } catch {
    return undefined
  }
  if (typeof value !== 'string' || value.trim() === '') return undefined
  const path = value.trim()
  if (path.startsWith('~/')) return join(home, path.slice(2))
  return isAbsolute(path) ? resolve(path) : undefined
}
