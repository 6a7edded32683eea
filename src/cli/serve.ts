import { existsSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { sousHome } from '../main/base/paths'
import { createHostCore } from '../main/host-core'
import { checkBindHost } from '../main/host/auth'
import { startBrowserHost } from '../main/host/ws'
import { MemoryKeyStore } from '../main/secrets/memory-key-store'
import { settingsFlag, splitRules } from './print-args'

/** What `sous serve` accepts. */
export interface ServeArgs {
  port: number
  host: string
  allowRemote: boolean
  /** Where the built renderer is; found next to the CLI (or via `SOUS_RENDERER_DIR`) when absent. */
  rendererDir?: string
  /** `--allowedTools`, `--disallowedTools`, `--settings`: rules for every session this host opens (as in `sous -p`). */
  cliRules?: { allowedTools: string[]; disallowedTools: string[]; settings?: string }
}

const USAGE = 'Usage: sous serve [--port N] [--host 127.0.0.1] [--allow-remote] [--allowedTools <rules>] [--disallowedTools <rules>] [--settings <file-or-json>]'

/** Parses the arguments after `serve`. Pure. */
export function parseServeArgs(argv: readonly string[]): { ok: true; args: ServeArgs } | { ok: false; message: string } {
  const args: ServeArgs = { port: 0, host: '127.0.0.1', allowRemote: false }
  for (let i = 0; i < argv.length; i++) {
    const [flag, inline] = splitFlag(argv[i] ?? '')
    const value = (): string | undefined => inline ?? argv[++i]
    switch (flag) {
      case '--port': {
        const text = value()
        const port = Number(text)
        if (!text || !/^\d+$/.test(text) || port > 65535) return { ok: false, message: `--port needs a number from 0 to 65535.\n${USAGE}` }
        args.port = port
        break
      }
      case '--host': {
        const text = value()
        if (!text) return { ok: false, message: `--host needs an address.\n${USAGE}` }
        args.host = text
        break
      }
      case '--allow-remote':
        args.allowRemote = true
        break
      case '--renderer-dir': {
        const text = value()
        if (!text) return { ok: false, message: `--renderer-dir needs a folder.\n${USAGE}` }
        args.rendererDir = resolve(text)
        break
      }
      case '--allowedTools':
      case '--disallowedTools': {
        const text = value()
        if (!text) return { ok: false, message: `${flag} needs rules.\n${USAGE}` }
        const rules = (args.cliRules ??= { allowedTools: [], disallowedTools: [] })
        rules[flag === '--allowedTools' ? 'allowedTools' : 'disallowedTools'].push(...splitRules([text]))
        break
      }
      case '--settings': {
        const text = value()
        const read = text === undefined ? { ok: false as const, error: '--settings needs a file or JSON text' } : settingsFlag(text)
        if (!read.ok) return { ok: false, message: `${read.error}\n${USAGE}` }
        ;(args.cliRules ??= { allowedTools: [], disallowedTools: [] }).settings = read.value
        break
      }
      default:
        return { ok: false, message: `Unknown option for serve: ${argv[i]}\n${USAGE}` }
    }
  }
  return { ok: true, args }
}

/**
 * `sous serve`: starts the browser host, prints `Sous listening on <url>` as the first line on
 * stdout, and runs until SIGINT/SIGTERM, then closes connections and kills every terminal.
 * Returns the exit code. `env` is the environment the model credentials are read from (the CLI
 * passes the copy it took before removing them from `process.env`).
 */
export async function runServe(argv: readonly string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const parsed = parseServeArgs(argv)
  if (!parsed.ok) {
    process.stderr.write(`sous serve: ${parsed.message}\n`)
    return 2
  }
  const { args } = parsed
  const bind = checkBindHost(args.host, args.allowRemote)
  if (!bind.ok) {
    process.stderr.write(`sous serve: ${bind.message}\n`)
    return 2
  }
  if (bind.warning) process.stderr.write(`${bind.warning}\n`)

  const rendererDir = args.rendererDir ?? findRendererDir()
  if (!existsSync(join(rendererDir, 'index.html'))) {
    process.stderr.write(`sous serve: no built renderer in ${rendererDir}; run \`npm run build\` first.\n`)
  }

  const { core, dispose: shutdown } = createHostCore({
    transport: 'browser',
    home: sousHome(env),
    env,
    keyStore: new MemoryKeyStore(env),
    ...(args.cliRules && { cliRules: args.cliRules }),
    log: (message) => process.stderr.write(`[sous] ${message}\n`),
  })

  let host
  try {
    host = await startBrowserHost({ core, rendererDir, host: args.host, port: args.port, allowRemote: args.allowRemote })
  } catch (error) {
    await shutdown()
    process.stderr.write(`sous serve: cannot listen on ${args.host}:${args.port}: ${(error as Error).message}\n`)
    return 1
  }
  const running = host
  const exitCode = new Promise<number>((resolveExit) => {
    let stopping = false
    const stop = (signal: NodeJS.Signals): void => {
      if (stopping) {
        // A second Ctrl-C: stop waiting for a clean shutdown.
        process.exit(130)
      }
      stopping = true
      process.stderr.write(`sous serve: ${signal}, shutting down…\n`)
      void Promise.allSettled([running.close(), shutdown()]).then(() => resolveExit(0))
    }
    process.on('SIGINT', stop)
    process.on('SIGTERM', stop)
  })
  // Printed only once the signal handlers are in place: whoever reads this line may stop us at once.
  process.stdout.write(`Sous listening on ${host.url}\n`)
  return exitCode
}

/**
 * The built renderer: `out/renderer` beside `out/main` (where the bundled CLI runs), or the
 * repository's `out/renderer` when running from sources. `SOUS_RENDERER_DIR` overrides.
 */
function findRendererDir(): string {
  if (process.env.SOUS_RENDERER_DIR) return resolve(process.env.SOUS_RENDERER_DIR)
  let dir = dirname(fileURLToPath(import.meta.url))
  for (let depth = 0; depth < 5; depth++) {
    if (existsSync(join(dir, 'out', 'renderer', 'index.html'))) return join(dir, 'out', 'renderer')
    dir = dirname(dir)
  }
  return resolve(dirname(fileURLToPath(import.meta.url)), '..', 'renderer')
}

function splitFlag(arg: string): [string, string | undefined] {
  const eq = arg.indexOf('=')
  return arg.startsWith('--') && eq > 0 ? [arg.slice(0, eq), arg.slice(eq + 1)] : [arg, undefined]
}
