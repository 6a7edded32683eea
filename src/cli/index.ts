import { setFlagsFromString } from 'node:v8'
import { compileCacheNotice, enableCompileCache } from '../main/base/compile-cache'
import { sealOwnCredentials } from '../main/base/own-credentials'
import { sousHome } from '../main/base/paths'
import { SOUS_VERSION } from '../main/host/version'

/**
 * The `sous` command. Kept tiny: each subcommand is imported only when asked for, so
 * `sous --version` and `sous --help` start fast.
 */

const HELP = `Sous ${SOUS_VERSION} — a companion for coding with an AI agent.

Usage:
  sous serve [--port N] [--host 127.0.0.1] [--allow-remote]
                          Serve the app to a browser (loopback only by default).
  sous host --stdio       Be the agent host of another Sous over stdin/stdout (remote projects).
  sous acp                Be an Agent Client Protocol agent over stdin/stdout (Zed, JetBrains…).
  sous -p, --print "…"    Run one prompt headless and print the answer.
  sous -p --remote <destination>:<absolute dir> [--remote-sous CMD] "…"
                          Run it on another machine over ssh (the key stays here).
  sous checkpoints <session-id> [--json]
                          List a session's checkpoints.
  sous rewind <session-id> --to <checkpoint-id> [--code|--conversation|--both] [--force] [--json]
                          Restore a checkpoint (exit 3 when conflicts were kept).
  sous --help             Show this help.
  sous --version          Show the version.
`

/** Runs the command line and returns the exit code. */
async function main(argv: readonly string[], env: NodeJS.ProcessEnv): Promise<number> {
  const [first] = argv
  if (first === 'host') {
    const { runHost } = await import('./host')
    return runHost(argv.slice(1), env)
  }
  if (first === 'acp') {
    const { runAcp } = await import('./acp')
    return runAcp(argv.slice(1), env)
  }
  if (first === 'serve') {
    const { runServe } = await import('./serve')
    return runServe(argv.slice(1), env)
  }
  if (first === 'checkpoints' || first === 'rewind') {
    const { runCheckpoints, runRewind } = await import('./checkpoints')
    const io = { stdout: process.stdout, stderr: process.stderr }
    return first === 'checkpoints' ? runCheckpoints(argv.slice(1), env, io) : runRewind(argv.slice(1), env, io)
  }
  if (argv.includes('-p') || argv.includes('--print')) return runPrintMode(argv, env)
  if (first === '--version' || first === '-v') {
    process.stdout.write(`${SOUS_VERSION}\n`)
    return 0
  }
  if (first === undefined || first === '--help' || first === '-h' || first === 'help') {
    process.stdout.write(HELP)
    return 0
  }
  process.stderr.write(`sous: unknown command or option: ${first}\n\n${HELP}`)
  return 2
}

/** Headless mode (`sous -p`): one prompt through the same core, answer on stdout. */
async function runPrintMode(argv: readonly string[], env: NodeJS.ProcessEnv): Promise<number> {
  if (argv.some((arg) => arg === '--remote' || arg.startsWith('--remote='))) return runRemotePrintMode(argv, env)
  const [{ runPrint }, { readStdin }] = await Promise.all([import('./print'), import('./stdin')])
  const controller = new AbortController()
  process.once('SIGINT', () => controller.abort())
  // stream-json input is read line by line while stdin stays open: a program can send a turn, read its result, send the next.
  if (argv.includes('stream-json') && argv.some((arg, i) => arg === '--input-format' || argv[i - 1] === '--input-format')) {
    const { createInterface } = await import('node:readline')
    return runPrint([...argv], process.env, { stdout: process.stdout, stderr: process.stderr, stdinLines: createInterface({ input: process.stdin, crlfDelay: Infinity }), signal: controller.signal })
  }
  const stdin = process.stdin.isTTY ? undefined : await readStdin(process.stdin)
  return runPrint([...argv], env, { stdout: process.stdout, stderr: process.stderr, stdin, signal: controller.signal })
}

/** `sous -p --remote <destination>:<dir>`: the turn runs on another machine over ssh. */
async function runRemotePrintMode(argv: readonly string[], env: NodeJS.ProcessEnv): Promise<number> {
  const [{ runRemotePrint, takeRemoteFlags }, { readStdin }] = await Promise.all([import('./print-remote'), import('./stdin')])
  const taken = takeRemoteFlags(argv)
  if (!taken.ok || !taken.flags) {
    process.stderr.write(`sous: ${taken.ok ? '--remote needs <destination>:<absolute dir>' : taken.message}\n`)
    return 2
  }
  const controller = new AbortController()
  process.once('SIGINT', () => controller.abort())
  const stdin = process.stdin.isTTY ? undefined : await readStdin(process.stdin)
  return runRemotePrint(taken.flags, taken.rest, env, { stdout: process.stdout, stderr: process.stderr, stdin, signal: controller.signal })
}

// First of all: the model credentials leave the process environment (and /proc/<pid>/environ);
// from here on only `env`, this copy in memory, holds them (see base/own-credentials.ts).
const { env } = sealOwnCredentials()
// Before the subcommand's chunks load: on Node ≥ 22.1 they are compiled from Node's code cache.
const notice = compileCacheNotice(enableCompileCache(sousHome(env), env))
if (notice) process.stderr.write(notice)
// A headless run is short: V8's young generation need not grow (it would double it at each
// scavenge, up to 16 MB held to the end). Measured in bench/startup.bench.ts: ~4 MB less peak RSS, no
// more CPU. The long-lived hosts (serve, the desktop app) keep V8's default.
if (process.argv.includes('-p') || process.argv.includes('--print')) setFlagsFromString('--semi-space-growth-factor=1')
const code = await main(process.argv.slice(2), env)
// Exit explicitly: a lingering handle (a PTY being reaped, pooled HTTP connections) must not
// keep a finished command alive. stdout/stderr to pipes and files are synchronous on POSIX.
process.exit(code)
