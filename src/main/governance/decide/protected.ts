import { basename, relative, sep } from 'node:path'
import picomatch from 'picomatch'

/**
 * Paths whose writes are never auto-approved (REFERENCE 2.3): repository and editor metadata,
 * shell start-up files, tool configs that run code, our settings and the sandbox config.
 * Reads are not protected (git status reads .git).
 */
const PROTECTED_DIRS = new Set(['.git', '.vscode', '.idea', '.husky', '.cargo', '.devcontainer', '.yarn', '.mvn', '.claude', '.sous', '.ssh', '.gnupg', '.aws'])

const PROTECTED_FILE_GLOBS = [
  '.gitconfig', '.gitmodules', '.gitattributes', '.bashrc', '.bash_profile', '.bash_login', '.bash_logout', '.zshrc', '.zshenv', '.zprofile',
  '.zlogin', '.zlogout', '.profile', '.kshrc', '.cshrc', '.tcshrc', '.inputrc', '.envrc', '.npmrc', '.yarnrc*', '.pnp.*', 'bunfig.toml', '.bazelrc',
  '.pre-commit-config.yaml', 'lefthook.*', '.lefthook.*', '.devcontainer.json', '.ripgreprc', '.mcp.json', '.claude.json', '.srt-settings.json',
  'managed-settings.json',
]
const isProtectedName = picomatch(PROTECTED_FILE_GLOBS, { dot: true })

/**
 * The reason a write to `abs` is protected, or undefined. `extraFiles` are exact paths that are
 * always protected (every settings file and the sandbox config).
 */
export function protectedReason(abs: string, projectRoot: string, extraFiles: readonly string[] = []): string | undefined {
  if (extraFiles.includes(abs)) return 'settings file'
  const name = basename(abs)
  if (isProtectedName(name)) return `protected file ${name}`
  const rel = relative(projectRoot, abs)
  const inside = rel !== '' && !rel.startsWith('..') && !rel.startsWith(sep)
  const parts = (inside ? rel : abs).split(sep).filter(Boolean)
  for (let i = 0; i < parts.length; i++) {
    const seg = parts[i] as string
    if (seg === '.config' && parts[i + 1] === 'git') return 'protected directory .config/git'
    if (!PROTECTED_DIRS.has(seg)) continue
    if (seg === '.claude' && parts[i + 1] === 'worktrees') continue
    return `protected directory ${seg}`
  }
  return undefined
}
