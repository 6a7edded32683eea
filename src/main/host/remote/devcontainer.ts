import { spawn } from 'node:child_process'
import { createRequire } from 'node:module'
import { processPipe, shellQuote, stderrTail, withoutCredentials } from './process-pipe'
import type { OpenedPipe } from './reconnecting'
import { sshCommand } from './ssh'

/** Where the dev container's Docker is: this machine, or an ssh destination (the devcontainer CLI runs there). */
export type DevcontainerPlace = { local: true } | { local: false; destination: string; ssh?: string }

/** Options of {@link devcontainerUp} and {@link openDevcontainerPipe}. */
export interface DevcontainerOptions {
  place: DevcontainerPlace
  /** The workspace folder (the one holding `.devcontainer/`), on the machine that runs Docker. */
  workspaceFolder: string
  /** The environment the CLI (or ssh) runs with; the model credentials are removed. */
  env: NodeJS.ProcessEnv
}

/**
 * The devcontainer CLI as argv: `SOUS_DEVCONTAINER` (words, as `SOUS_SSH`), else the
 * `@devcontainers/cli` dependency run by this Node, else `devcontainer` on PATH. On an ssh host it
 * is `devcontainer` there (or `SOUS_DEVCONTAINER`).
 */
export function devcontainerCommand(env: NodeJS.ProcessEnv, local: boolean): string[] {
  if (env['SOUS_DEVCONTAINER']?.trim()) return sshCommand(env['SOUS_DEVCONTAINER'])
  if (!local) return ['devcontainer']
  try {
    return [process.execPath, createRequire(import.meta.url).resolve('@devcontainers/cli/devcontainer.js')]
  } catch {
    return ['devcontainer']
  }
}

/**
 * `devcontainer up --workspace-folder <dir>`: builds or starts the container (idempotent: an
 * existing one is reused) and answers the folder the workspace has inside it
 * (`remoteWorkspaceFolder`). A failure answers the CLI's own message and exit code.
 */
export async function devcontainerUp(options: DevcontainerOptions & { onStderr?: (text: string) => void }): Promise<{ ok: true; folder: string } | { ok: false; message: string; code: number }> {
  const child = spawnCli(options, ['up', '--workspace-folder', options.workspaceFolder])
  let stdout = ''
  let stderr = ''
  child.stdin.end()
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')))
  child.stderr.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString('utf8')).slice(-8000)
    options.onStderr?.(chunk.toString('utf8'))
  })
  const code = await new Promise<number>((resolve) => {
    child.once('error', (error) => {
      stderr += `\n${error.message}`
      resolve(127)
    })
    child.once('exit', (exit) => resolve(exit ?? 1))
  })
  const where = options.place.local ? 'here' : `on ${options.place.destination}`
  const outcome = lastJson(stdout)
  if (code === 0 && outcome?.['outcome'] === 'success' && typeof outcome['remoteWorkspaceFolder'] === 'string') return { ok: true, folder: outcome['remoteWorkspaceFolder'] }
  if (code === 127) return { ok: false, code, message: `the devcontainer CLI was not found ${where} (exit 127): install it with npm i -g @devcontainers/cli, or set SOUS_DEVCONTAINER.\n${stderrTail(stderr)}` }
  const said = [outcome?.['message'], outcome?.['description']].filter((part) => typeof part === 'string').join('\n') || stderrTail(stderr) || '(it said nothing)'
  return { ok: false, code: code || 1, message: `devcontainer up ${where} failed for ${options.workspaceFolder} (exit ${code}):\n${said}` }
}

/**
 * One `devcontainer exec --workspace-folder <dir> <remote-sous> host --stdio …` as a pipe: Sous
 * runs inside the container, next to the workspace.
 */
export function openDevcontainerPipe(options: DevcontainerOptions & { remoteSous: string; hostArgs: readonly string[]; onStderr?: (text: string) => void; killAfterMs?: number }): OpenedPipe {
  const child = spawnCli(options, ['exec', '--workspace-folder', options.workspaceFolder, ...sshCommand(options.remoteSous), 'host', '--stdio', ...options.hostArgs])
  return processPipe(child, {
    explain: (end) =>
      end.code === 127 || /not found/i.test(end.stderr)
        ? `Sous is not installed in the dev container of ${options.workspaceFolder} (\`${options.remoteSous}\`, exit ${end.code}): add it to the image or a postCreateCommand (npm i -g sous@<this version>), or pass the command that starts it.\n${stderrTail(end.stderr)}`
        : `devcontainer exec in ${options.workspaceFolder} ended before the handshake (exit ${end.code ?? end.signal}):\n${stderrTail(end.stderr) || '(nothing on stderr)'}`,
    ...(options.onStderr && { onStderr: options.onStderr }),
    ...(options.killAfterMs !== undefined && { killAfterMs: options.killAfterMs }),
  })
}

/** The CLI with `args`, here or through the system ssh (arguments quoted for the remote shell). */
function spawnCli(options: DevcontainerOptions, args: string[]) {
  const env = withoutCredentials(options.env)
  const cli = devcontainerCommand(options.env, options.place.local)
  if (options.place.local) return spawn(cli[0]!, [...cli.slice(1), ...args], { env, stdio: ['pipe', 'pipe', 'pipe'] })
  const [ssh, ...sshArgs] = sshCommand(options.place.ssh)
  const remote = [...cli, ...args].map(shellQuote).join(' ')
  return spawn(ssh!, [...sshArgs, '-T', '-o', 'BatchMode=yes', '--', options.place.destination, remote], { env, stdio: ['pipe', 'pipe', 'pipe'] })
}

/** The last line of `text` that parses as a JSON object (the CLI prints its outcome last). */
function lastJson(text: string): Record<string, unknown> | undefined {
  for (const line of text.trim().split('\n').reverse()) {
    try {
      const parsed = JSON.parse(line) as unknown
      if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) return parsed as Record<string, unknown>
    } catch {
      // a log line
    }
  }
  return undefined
}
