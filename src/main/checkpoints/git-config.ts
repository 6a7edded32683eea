import { lstat, mkdir, rename, writeFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { runGit } from './git'

/**
 * The user's and the system's git configuration as one file of Sous's own, which a store's git
 * runs read instead (`GIT_CONFIG_GLOBAL` names it, `GIT_CONFIG_NOSYSTEM` skips `/etc/gitconfig`).
 *
 * Why: snapshots run git while the agent's commands run (a call's tree object is written while
 * it runs; a watcher asks git about folders as they appear; subagents and background commands
 * overlap), and what those commands do to `~/.gitconfig` must not make them fail. The command
 * sandbox stands an empty folder in for an absent `~/.gitconfig` while a command runs (when the
 * home lies inside a writable folder), and git stops at a configuration file it cannot read
 * ("unable to access '~/.gitconfig': Is a directory"): that snapshot was recorded missing, and
 * restore then counted the call's own changes as someone else's. Pinned, git reads exactly what
 * it read when the store opened (includes already expanded by `git config --list`), with the
 * repository's own configuration still read from the repository, after it, as git orders them.
 */
export function pinnedConfigText(listing: string): string {
  const lines: string[] = []
  // `--show-scope --null`: "<scope>\0<key>\n<value>\0" per entry (a key without a value has no newline).
  const fields = listing.split('\0')
  for (let at = 0; at + 1 < fields.length; at += 2) {
    const scope = fields[at]!
    if (scope !== 'system' && scope !== 'global') continue
    const field = fields[at + 1]!
    const newline = field.indexOf('\n')
    const name = newline === -1 ? field : field.slice(0, newline)
    const first = name.indexOf('.')
    const last = name.lastIndexOf('.')
    if (first <= 0 || last === name.length - 1) continue
    const section = name.slice(0, first)
    const key = name.slice(last + 1)
    const header = last > first ? `[${section} "${quote(name.slice(first + 1, last))}"]` : `[${section}]`
    // One header per entry keeps the order of multi-valued keys exactly as git listed them.
    lines.push(header, newline === -1 ? `\t${key}` : `\t${key} = "${quote(field.slice(newline + 1))}"`)
  }
  return lines.length > 0 ? `${lines.join('\n')}\n` : ''
}

function quote(text: string): string {
  return text.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n')
}

/** Writes the pinned file atomically (a git run reading it meanwhile sees the old one or the new one). */
export async function writePinnedConfig(path: string, listing: string): Promise<void> {
  await mkdir(dirname(path), { recursive: true, mode: 0o700 })
  const temporary = `${path}.${process.pid}.tmp`
  await writeFile(temporary, pinnedConfigText(listing), { mode: 0o600 })
  await rename(temporary, path)
}

/** The files git reads the user's and the system's configuration from (a change to one makes the store pin afresh). */
export function globalConfigFiles(env: NodeJS.ProcessEnv): string[] {
  const home = env['HOME'] ?? ''
  const xdg = env['XDG_CONFIG_HOME'] || join(home, '.config')
  return [join(home, '.gitconfig'), join(xdg, 'git', 'config'), '/etc/gitconfig']
}

/** Those files' stat data as one string, and whether git could read them all (none of them a folder). */
export async function globalConfigMark(env: NodeJS.ProcessEnv): Promise<{ mark: string; readable: boolean }> {
  const infos = await Promise.all(globalConfigFiles(env).map((path) => lstat(path).catch(() => undefined)))
  return {
    mark: infos.map((info) => (info ? `${info.ino}:${info.size}:${info.mtimeMs}:${info.ctimeMs}` : '')).join('|'),
    readable: infos.every((info) => !info?.isDirectory()),
  }
}

/**
 * One store's pin: the file its git runs read as the user's and system's configuration, and the
 * stat data of their files when it was made.
 */
export class ConfigPin {
  private constructor(
    readonly path: string,
    private mark: string,
    private readonly env: NodeJS.ProcessEnv,
  ) {}

  /** Pins `listing` (`git config --list --show-scope --null`, read after `mark` was taken) at `path`. */
  static async make(path: string, env: NodeJS.ProcessEnv, listing: string, mark: string): Promise<ConfigPin> {
    await writePinnedConfig(path, listing)
    return new ConfigPin(path, mark, env)
  }

  /**
   * Pins afresh when the files changed since and git can read them now (an unreadable one — a
   * folder standing in for it — keeps the pin as it was, and is looked at again next time).
   * The new listing when it re-pinned.
   */
  async refresh(cwd: string): Promise<string | undefined> {
    const now = await globalConfigMark(this.env)
    if (now.mark === this.mark || !now.readable) return undefined
    const config = await runGit(['config', '--list', '--show-scope', '--null'], { cwd, env: this.env })
    if (!config.ok) return undefined
    const listing = config.stdout.toString('utf8')
    await writePinnedConfig(this.path, listing)
    this.mark = now.mark
    return listing
  }
}
