import { lstat } from 'node:fs/promises'
import { join } from 'node:path'
import { runGit, type GitCall } from './git'
import { MAX_FILE_BYTES } from './types'

/** Bytes of paths one command line may carry (`ls-files` takes no pathspec file); past it the caller scans everything. */
const MAX_ARGUMENT_BYTES = 256 * 1024

/**
 * `add -A` limited to the paths a watcher saw change, into the private index, so git neither
 * stats every tracked file nor walks every folder (nor preloads the index on threads, for the
 * few entries it looks at). It must leave the index exactly as a full `add -A -- :/` would.
 * When the paths are all files that exist, they go straight to `add` ({@link addFilesDirectly});
 * otherwise (a folder, a path gone, a large file) they are first put to git itself: `ls-files --cached --others
 * --exclude-standard` under them names the tracked entries there (deleted ones included: `add -A`
 * then removes them) and the untracked files git does not ignore (an untracked nested repository
 * as `dir/`). Only those are given to `add -A`, so no pathspec matches nothing (git refuses
 * that) and no ignored file is named (git refuses that too); new files over the size cap are left
 * out as the full scan leaves them out, and skip-worktree entries (a sparse checkout) as `add -A`
 * itself does. Paths are literal (`GIT_LITERAL_PATHSPECS`), and go to `add` through stdin,
 * NUL-separated. Throws when git fails (the caller then scans everything).
 */
export async function addChangedPaths(call: GitCall, root: string, paths: readonly string[]): Promise<void> {
  if (await addFilesDirectly(call, root, paths)) return
  const listed = await gitRaw(['ls-files', '-z', '-t', '--cached', '--others', '--exclude-standard', '--', ...fit(paths)], { ...call, literal: true })
  const add = new Set<string>()
  for (const line of listed.split('\0')) {
    if (line.length < 3) continue
    const tag = line[0]
    const path = line.slice(2)
    if (tag === 'S') continue
    if (tag === '?' && !path.endsWith('/')) {
      const info = await lstat(join(root, path)).catch(() => undefined)
      if (info?.isFile() && info.size > MAX_FILE_BYTES) continue
    }
    add.add(path)
  }
  if (add.size === 0) return
  await gitRaw(['-c', 'core.preloadIndex=false', 'add', '-A', '--ignore-errors', '--pathspec-from-file=-', '--pathspec-file-nul'], { ...call, literal: true, input: `${[...add].join('\0')}\0` })
}

/**
 * The common case in one git process: every path is a file or link that is there, none over the
 * size cap. Each then matches something (the file), so `add -A` cannot refuse a pathspec; one
 * that git ignores it names and leaves out (exit 1, the index still written): that, and only
 * that, is accepted. False when the paths are not all such files (the caller lists them first).
 */
async function addFilesDirectly(call: GitCall, root: string, paths: readonly string[]): Promise<boolean> {
  // git's complaint names one path a line: a name with a newline could pass for another line.
  if (paths.some((path) => path.includes('\n'))) return false
  for (const path of paths) {
    const info = await lstat(join(root, path)).catch(() => undefined)
    if (!info || !(info.isFile() || info.isSymbolicLink()) || info.size > MAX_FILE_BYTES) return false
  }
  const out = await runGit(['-c', 'core.preloadIndex=false', 'add', '-A', '--ignore-errors', '--pathspec-from-file=-', '--pathspec-file-nul'], { ...call, literal: true, input: `${paths.join('\0')}\0` })
  if (out.ok) return true
  if (out.code === 1 && onlyIgnored(out.stderr ?? '', paths)) return true
  throw new Error(`git add: ${out.error}`)
}

/** Whether `add`'s complaint is only "these are ignored", each named path one of `paths` or a folder above one. */
export function onlyIgnored(stderr: string, paths: readonly string[]): boolean {
  const [header, ...names] = stderr.replace(/\n$/, '').split('\n')
  if (header !== 'The following paths are ignored by one of your .gitignore files:' || names.length === 0) return false
  const given = new Set(paths)
  return names.every((name) => given.has(name) || paths.some((path) => path.startsWith(`${name}/`)))
}

/**
 * Folders no snapshot reads: wholly ignored, holding nothing tracked (`ls-files --others --ignored
 * --directory` names such a folder as `dir/`). With `folders`, only those are asked about;
 * without, the whole tree (one walk, as a full scan makes).
 */
export async function ignoredFolders(call: GitCall, folders?: readonly string[]): Promise<Set<string>> {
  const args = ['ls-files', '-z', '--others', '--ignored', '--exclude-standard', '--directory']
  const out = await gitRaw(folders ? [...args, '--', ...fit(folders)] : args, { ...call, literal: true })
  const found = new Set<string>()
  for (const entry of out.split('\0')) if (entry.endsWith('/')) found.add(entry.slice(0, -1))
  return found
}

function fit(paths: readonly string[]): readonly string[] {
  if (paths.reduce((bytes, path) => bytes + Buffer.byteLength(path) + 1, 0) > MAX_ARGUMENT_BYTES) throw new Error('too many changed paths for one git command')
  return paths
}

/** Git's stdout as text, untrimmed (a path may end in a space); throws on failure. */
async function gitRaw(args: readonly string[], call: GitCall): Promise<string> {
  const out = await runGit(args, call)
  if (!out.ok) throw new Error(`git ${args[0]}: ${out.error}`)
  return out.stdout.toString('utf8')
}
