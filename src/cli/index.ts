/**
 * The `sous` command (minimal entry until the full CLI lands): `sous -p …` runs headless mode.
 * Heavy modules load lazily so a one-shot run starts fast.
 */
import { runPrint } from './print'
import { readStdin } from './stdin'

const argv = process.argv.slice(2)
if (argv.includes('-p') || argv.includes('--print')) {
  const controller = new AbortController()
  process.once('SIGINT', () => controller.abort())
  const stdin = process.stdin.isTTY ? undefined : await readStdin(process.stdin)
  const code = await runPrint(argv, process.env, { stdout: process.stdout, stderr: process.stderr, stdin, signal: controller.signal })
  // Exit now: pooled HTTP connections would otherwise keep the process alive for seconds.
  // (stdout/stderr to pipes and files are synchronous on POSIX, so nothing is lost.)
  process.exit(code)
} else {
  process.stderr.write('Usage: sous -p [options] [prompt]   (sous -p --help for details)\n')
  process.exit(2)
}
