import { basename, relative, sep } from 'node:path'
import picomatch from 'picomatch'
import { gitLayout } from '../paths/git-layout'
import { isUnder, spellings, type Place } from '../paths/place'

/**
 * Paths whose writes are never auto-approved (REFERENCE 2.3): repository and editor metadata,
 * shell start-up files, tool configs that run code, our settings and the sandbox config.
 * Reads are not protected (git status reads .git). A write is judged by the path as written and
 * by where it really leads, so `cfg -> .claude` or `h -> .git/hooks` protects what is behind it.
 */
const PROTECTED_DIRS = new Set(['.git', '.vscode', '.idea', '.husky', '.cargo', '.devcontainer', '.yarn', '.mvn', '.claude', '.sous', '.ssh', '.gnupg', '.aws'])

const PROTECTED_FILE_GLOBS = [
  '.gitconfig', '.gitmodules', '.gitattributes', '.bashrc', '.bash_profile', '.bash_login', '.bash_logout', '.zshrc', '.zshenv', '.zprofile',
  '.zlogin', '.zlogout', '.profile', '.kshrc', '.cshrc', '.tcshrc', '.inputrc', '.envrc', '.npmrc', '.yarnrc*', '.pnp.*', 'bunfig.toml', '.bazelrc',
  '.pre-commit-config.yaml', 'lefthook.*', '.lefthook.*', '.devcontainer.json', '.ripgreprc', '.mcp.json', '.claude.json', '.srt-settings.json',
  'managed-settings.json',
]
// Compiled at the first write judged, not as the module loads (~2 ms of a cold `sous -p`).
let protectedNameMatcher: ((name: string) => boolean) | undefined
const isProtectedName = (name: string): boolean => (protectedNameMatcher ??= picomatch(PROTECTED_FILE_GLOBS, { dot: true }))(name)

/**
 * The reason a write to this place is protected, or undefined. `extraFiles` are exact paths that
 * are always protected (every settings file and the sandbox config), and so are `hookScripts`
 * (what the obeyed hooks run outside the sandbox). The repository's own git folders count wherever
 * they are (a worktree's `.git` file may point outside the project).
 */
export function protectedReason(place: Place, projectRoot: string, extraFiles: readonly string[] = [], hookScripts: readonly string[] = []): string | undefined {
  const gitFolders = gitFoldersOf(projectRoot)
  for (const path of spellings(place)) {
    const why = hookScripts.includes(path) ? 'script a hook runs' : reasonFor(path, projectRoot, extraFiles, gitFolders)
    if (why) return path === place.path ? why : `${why} (${place.path} leads to ${path})`
  }
  return undefined
}

function gitFoldersOf(projectRoot: string): string[] {
  const layout = gitLayout(projectRoot)
  return [layout.gitDir, layout.commonDir].filter((dir): dir is string => dir !== undefined)
}

function reasonFor(abs: string, projectRoot: string, extraFiles: readonly string[], gitFolders: string[]): string | undefined {
  if (extraFiles.includes(abs)) return 'settings file'
  const name = basename(abs)
  if (isProtectedName(name)) return `protected file ${name}`
  if (gitFolders.some((dir) => isUnder(abs, dir))) return "protected directory (the repository's git folder)"
  const rel = relative(projectRoot, abs)
  const inside = rel !== '' && !rel.startsWith('..') && !rel.startsWith(sep)
  const parts = (inside ? rel : abs).split(sep).filter(Boolean)
  for (let i = 0; i < parts.length; i++) {
    const segment = parts[i] as string
    if (segment === '.config' && parts[i + 1] === 'git') return 'protected directory .config/git'
    // A folder named like a bare repository (`x.git/config`, `x.git/hooks/…`) is one git would use.
    if (i < parts.length - 1 && segment.endsWith('.git') && segment !== '.git') return `protected directory ${segment} (a git folder)`
    if (!PROTECTED_DIRS.has(segment)) continue
    if (segment === '.claude' && parts[i + 1] === 'worktrees') continue
    return `protected directory ${segment}`
  }
  return undefined
}
