import { spawn } from 'node:child_process'
import { readdir, stat } from 'node:fs/promises'
import { join } from 'node:path'
import { childEnvironment } from '../base/child-env'
import { ripgrepCommand } from '../base/ripgrep'
import { insideProject } from './files'

/** Bounds of one listing (the same as the walk's). */
export interface ListLimits {
  maxEntries: number
  timeMs: number
}

/**
 * The project's files and folders for `@` completion, listed by the bundled ripgrep (ten to twenty
 * times faster than walking in JavaScript on a large tree, so deep files are found within the
 * bounds). Same rules as the walk in file-search.ts: `.git` left out, every `.gitignore` from the
 * root down applied whether or not the folder is a git repository (and nothing above the root,
 * nor the user's global excludes), links out of the project left out, links inside it listed but
 * not entered. Relative, `/`-separated, folders end with `/`, shallow first.
 *
 * Returns `undefined` when ripgrep cannot run, so the caller walks instead.
 */
export async function listWithRipgrep(root: string, limits: ListLimits): Promise<string[] | undefined> {
  const deadline = Date.now() + limits.timeMs
  const files = await ripgrepFiles(root, limits)
  if (!files) return undefined
  const folders = new Set<string>()
  for (const file of files) {
    for (let at = file.indexOf('/'); at !== -1; at = file.indexOf('/', at + 1)) folders.add(file.slice(0, at + 1))
  }
  const links = await linksIn(root, ['', ...folders], deadline)
  // Shallow first, so a bound keeps the top of the tree (ranking orders what is shown).
  const all = [...new Set([...files, ...folders, ...links])].map((path) => ({ path, depth: depth(path) }))
  all.sort((a, b) => a.depth - b.depth || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))
  return all.slice(0, limits.maxEntries).map((entry) => entry.path)
}

function depth(path: string): number {
  let count = 0
  for (let at = path.indexOf('/'); at !== -1 && at < path.length - 1; at = path.indexOf('/', at + 1)) count++
  return count
}

/** The files ripgrep lists (it follows no links), or `undefined` when it cannot run. */
async function ripgrepFiles(root: string, limits: ListLimits): Promise<string[] | undefined> {
  const command = await ripgrepCommand()
  const args = ['--files', '--hidden', '--glob', '!.git', '--no-require-git', '--no-ignore-parent', '--no-ignore-global', '--no-ignore-dot', '--no-config', '--no-messages']
  return new Promise((resolve) => {
    // No child gets Sous's credentials (childEnvironment); a user's ripgrep config is not ours.
    const env = childEnvironment(process.env)
    delete env.RIPGREP_CONFIG_PATH
    const child = spawn(command, args, { cwd: root, env, stdio: ['ignore', 'pipe', 'ignore'] })
    const found: string[] = []
    let carry = ''
    let enough = false
    const timer = setTimeout(() => child.kill(), limits.timeMs)
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      if (enough) return
      const lines = (carry + chunk).split('\n')
      carry = lines.pop() ?? ''
      for (const line of lines) if (line) found.push(line.replace(/^\.\//, ''))
      // A tree larger than the bound answers with what was seen, as the walk does.
      if (found.length >= limits.maxEntries) {
        enough = true
        child.kill()
      }
    })
    child.on('error', () => {
      clearTimeout(timer)
      resolve(undefined)
    })
    child.on('close', (code, signal) => {
      clearTimeout(timer)
      if (carry && !enough) found.push(carry.replace(/^\.\//, ''))
      // 0: files listed, 1: none; a kill is our own bound. Anything else: let the walk answer.
      resolve(code === 0 || code === 1 || signal !== null || enough ? found : undefined)
    })
  })
}

/**
 * Links in the given folders that lead to a place inside the project (folders end with `/`).
 * ripgrep skips links, so each listed folder is read once, a batch at a time, within the bound.
 * (An ignore rule that names a link is not applied to it.)
 */
async function linksIn(root: string, folders: string[], deadline: number): Promise<string[]> {
  const links: string[] = []
  for (let start = 0; start < folders.length && Date.now() <= deadline; start += LINK_BATCH) {
    const batch = folders.slice(start, start + LINK_BATCH)
    const found = await Promise.all(batch.map((folder) => linksOf(root, folder)))
    links.push(...found.flat())
  }
  return links
}

const LINK_BATCH = 64

async function linksOf(root: string, folder: string): Promise<string[]> {
  const dirents = await readdir(join(root, folder), { withFileTypes: true }).catch(() => [])
  const named = dirents.filter((dirent) => dirent.isSymbolicLink() && dirent.name !== '.git').map((dirent) => `${folder}${dirent.name}`)
  const links = await Promise.all(
    named.map(async (path) => {
      const target = await insideProject(root, path).catch(() => undefined)
      if (target === undefined) return undefined
      const isDir = (await stat(target).catch(() => undefined))?.isDirectory() ?? false
      return isDir ? `${path}/` : path
    }),
  )
  return links.filter((link): link is string => link !== undefined)
}
