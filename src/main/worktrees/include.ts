import { constants } from 'node:fs'
import { copyFile, lstat, mkdir, readFile, realpath } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import ignore, { type Ignore } from 'ignore'
import { git } from './git'
import { isInside } from './location'

/** What `.worktreeinclude` did: files copied (relative, `/`-separated) and files left out, with why. */
export interface IncludeOutcome {
  copied: string[]
  skipped: { path: string; why: string }[]
}

/** The most a `.worktreeinclude` may hold; a bigger one is not read. */
const MAX_INCLUDE_BYTES = 64 * 1024
/** Copies at once: enough to hide each file's latency, few enough not to exhaust descriptors. */
const PARALLEL_COPIES = 16

/**
 * Copies the files `.worktreeinclude` names from the main checkout into a new worktree, as Claude
 * Code does: the file is gitignore syntax, and only files git ignores (`git ls-files --others
 * --ignored --exclude-standard`) are candidates — tracked files are in the checkout already, so
 * `.env`, local keys and build settings are what it is for. An ignored folder is looked into only
 * when a pattern starts with it, so `node_modules/` is never walked for a `.env` pattern.
 *
 * The repository is untrusted: a `.worktreeinclude` that is a link is not read; a source that is a
 * link, is not a plain file, or whose folder leads outside the checkout is skipped; a destination
 * is only ever a new file (`COPYFILE_EXCL`, so a link planted in the worktree's checkout is never
 * written through) in a folder whose real path stays in the worktree; nothing under `.git`.
 * Contract: never rejects; what could not be copied is in `skipped`.
 */
export async function copyWorktreeInclude(root: string, worktree: string, env?: NodeJS.ProcessEnv): Promise<IncludeOutcome> {
  const outcome: IncludeOutcome = { copied: [], skipped: [] }
  const patterns = await readPatterns(root, outcome)
  if (!patterns) return outcome
  const matcher = ignore().add(patterns.text)
  const candidates = await ignoredFiles(root, patterns.lines, matcher, env)
  let realRoot: string, realWorktree: string
  try {
    ;[realRoot, realWorktree] = await Promise.all([realpath(root), realpath(worktree)])
  } catch (error) {
    outcome.skipped.push({ path: '.worktreeinclude', why: `the checkout or the worktree could not be resolved: ${(error as Error).message}` })
    return outcome
  }
  for (let start = 0; start < candidates.length; start += PARALLEL_COPIES) {
    await Promise.all(candidates.slice(start, start + PARALLEL_COPIES).map(async (path) => {
      const why = await copyOne(realRoot, realWorktree, path)
      if (why) outcome.skipped.push({ path, why })
      else outcome.copied.push(path)
    }))
  }
  outcome.copied.sort()
  return outcome
}

async function readPatterns(root: string, outcome: IncludeOutcome): Promise<{ text: string; lines: string[] } | undefined> {
  const file = join(root, '.worktreeinclude')
  const stat = await lstat(file).catch(() => undefined)
  if (!stat) return undefined
  if (!stat.isFile()) {
    outcome.skipped.push({ path: '.worktreeinclude', why: stat.isSymbolicLink() ? 'it is a symbolic link, which is not followed' : 'it is not a plain file' })
    return undefined
  }
  if (stat.size > MAX_INCLUDE_BYTES) {
    outcome.skipped.push({ path: '.worktreeinclude', why: `it is larger than ${MAX_INCLUDE_BYTES / 1024} KB` })
    return undefined
  }
  const text = await readFile(file, 'utf8').catch(() => '')
  const lines = text.split(/\r?\n/).map((line) => line.trim()).filter((line) => line !== '' && !line.startsWith('#'))
  return lines.length > 0 ? { text, lines } : undefined
}

/** The ignored, untracked files the patterns select: folders are looked into only where a pattern starts with them. */
async function ignoredFiles(root: string, lines: readonly string[], matcher: Ignore, env?: NodeJS.ProcessEnv): Promise<string[]> {
  const list = async (extra: string[]): Promise<string[]> => {
    const out = await git(['ls-files', '--others', '--ignored', '--exclude-standard', '-z', ...extra], { cwd: root, ...(env && { env }) })
    return out.ok ? out.stdout.split('\0').filter((entry) => entry !== '') : []
  }
  const entries = await list(['--directory'])
  const files = entries.filter((entry) => !entry.endsWith('/') && matcher.ignores(entry))
  const folders = entries.filter((entry) => entry.endsWith('/') && lines.some((line) => reaches(line, entry)))
  if (folders.length > 0) files.push(...(await list(['--', ...folders])).filter((entry) => matcher.ignores(entry)))
  return [...new Set(files)].filter((path) => !path.split('/').includes('.git'))
}

/** Whether a pattern could select something inside `folder` (`a/b/`): it starts with it, or its part before the first wildcard does. */
function reaches(line: string, folder: string): boolean {
  const pattern = line.replace(/^!/, '').replace(/^\//, '')
  if (pattern.startsWith(folder)) return true
  const wildcard = pattern.search(/[*?[]/)
  if (wildcard > 0 && folder.startsWith(pattern.slice(0, wildcard))) return true
  // `dir` or `dir/` naming the folder itself.
  return `${pattern.replace(/\/$/, '')}/` === folder
}

/**
 * Copies one file (`path`, relative) from the main checkout into the worktree, both real paths,
 * with the checks of {@link copyWorktreeInclude}: no link followed, nothing written outside the
 * worktree, never over an existing file. The reason it was skipped, or undefined when copied.
 * Contract: never rejects.
 */
export async function copyOne(realRoot: string, realWorktree: string, path: string): Promise<string | undefined> {
  const source = join(realRoot, path)
  const target = join(realWorktree, path)
  if (!isInside(source, realRoot) || !isInside(target, realWorktree)) return 'it would lead outside the project'
  try {
    const stat = await lstat(source)
    if (stat.isSymbolicLink()) return 'it is a symbolic link, which is not followed'
    if (!stat.isFile()) return 'it is not a plain file'
    if (!isInside(await realpath(dirname(source)), realRoot)) return 'its folder leads outside the project'
    await mkdir(dirname(target), { recursive: true })
    if (!isInside(await realpath(dirname(target)), realWorktree)) return 'its folder in the worktree leads outside the worktree'
    await copyFile(source, target, constants.COPYFILE_EXCL)
    return undefined
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    return code === 'EEXIST' ? 'the worktree already has a file there' : `it could not be copied (${code ?? (error as Error).message})`
  }
}
