import { accessSync, constants, lstatSync, readFileSync, statSync } from 'node:fs'
import { delimiter, isAbsolute, join } from 'node:path'
import { AppError } from '../../../shared/ipc/result'
import { writeFileAtomicSync } from '../../base/atomic-write'

/** A server as the "Add MCP server" form sends it. */
export type NewMcpServer =
  | { type: 'stdio'; command: string; args: readonly string[]; env: Readonly<Record<string, string>> }
  | { type: 'http' | 'sse'; url: string }

/** Where the form writes: the project's `.mcp.json` (shared with the repository) or the user's Sous settings. */
export type McpTarget = 'project' | 'user'

/** The file a target means. */
export function mcpTargetFile(target: McpTarget, projectPath: string, sousHome: string): string {
  return target === 'project' ? join(projectPath, '.mcp.json') : join(sousHome, 'settings.json')
}

/** Refuses a file that exists and is not a plain file (a symbolic link, a folder, a device). */
function refuseLinks(file: string): void {
  let kind: 'missing' | 'plain' | 'other' = 'missing'
  try {
    kind = lstatSync(file).isFile() ? 'plain' : 'other'
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw new AppError('INVALID_INPUT', `${file} could not be read: ${(error as Error).message}`)
  }
  if (kind === 'other') throw new AppError('INVALID_INPUT', `${file} is not a plain file (a symbolic link, say); nothing was written.`)
}

/** Finds `command` as a shell would: a path with a slash must be an executable file, a bare name must be on PATH. */
export function commandExists(command: string, env: Readonly<Record<string, string | undefined>>, cwd: string): boolean {
  const executable = (path: string) => {
    try {
      return statSync(path).isFile() && (accessSync(path, constants.X_OK), true)
    } catch {
      return false
    }
  }
  if (command.includes('/')) return executable(isAbsolute(command) ? command : join(cwd, command))
  return (env.PATH ?? '').split(delimiter).some((dir) => dir !== '' && executable(join(dir, command)))
}

/**
 * Checks a new server and writes it under `mcpServers` of `file`, keeping everything else in the
 * file. Refused before anything is written (INVALID_INPUT): a name already there, a command that
 * does not exist, a URL that is not http(s), a file that is not a JSON object (fails closed rather
 * than overwrite what could not be read).
 */
export function addMcpServer(file: string, name: string, server: NewMcpServer, check: { env: Readonly<Record<string, string | undefined>>; cwd: string; mode?: number; plainFileOnly?: boolean }): void {
  // A repository is untrusted: its `.mcp.json` may be a link to a JSON file elsewhere (a token
  // store, say), which reading and writing it back into the project would copy into the repository.
  if (check.plainFileOnly) refuseLinks(file)
  if (server.type === 'stdio') {
    if (!commandExists(server.command, check.env, check.cwd)) throw new AppError('INVALID_INPUT', `No such command: ${server.command} (not an executable file, and not found on PATH).`)
  } else {
    let url: URL | undefined
    try {
      url = new URL(server.url)
    } catch {
      url = undefined
    }
    if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) throw new AppError('INVALID_INPUT', `Not an http(s) URL: ${server.url}`)
  }
  let text: string | null = null
  try {
    text = readFileSync(file, 'utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw new AppError('INVALID_INPUT', `${file} could not be read: ${(error as Error).message}`)
  }
  let root: Record<string, unknown> = {}
  if (text !== null && text.trim() !== '') {
    let parsed: unknown
    try {
      parsed = JSON.parse(text)
    } catch (error) {
      throw new AppError('INVALID_INPUT', `${file} is not valid JSON (${(error as Error).message}); fix it first, nothing was written.`)
    }
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new AppError('INVALID_INPUT', `${file} does not hold a JSON object; nothing was written.`)
    root = parsed as Record<string, unknown>
  }
  const existing = root.mcpServers
  if (existing !== undefined && (!existing || typeof existing !== 'object' || Array.isArray(existing))) throw new AppError('INVALID_INPUT', `mcpServers in ${file} is not an object; nothing was written.`)
  const servers = { ...(existing as Record<string, unknown> | undefined) }
  if (name in servers) throw new AppError('INVALID_INPUT', `${file} already has a server named ${name}.`)
  servers[name] =
    server.type === 'stdio'
      ? { type: 'stdio', command: server.command, args: [...server.args], ...(Object.keys(server.env).length > 0 && { env: { ...server.env } }) }
      : { type: server.type, url: server.url }
  writeFileAtomicSync(file, `${JSON.stringify({ ...root, mcpServers: servers }, null, 2)}\n`, check.mode ?? 0o600)
}
