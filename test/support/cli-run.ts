import type { PrintIO } from '../../src/cli/print'

/** What an in-process subcommand printed, and its exit code. */
export interface CliRun {
  code: number
  stdout: string
  stderr: string
}

/** Runs an in-process CLI subcommand (`runCheckpoints`, `runRewind`…) with buffers for its output. */
export async function runCli(run: (argv: string[], env: NodeJS.ProcessEnv, io: PrintIO) => Promise<number>, argv: string[], env: NodeJS.ProcessEnv): Promise<CliRun> {
  let stdout = ''
  let stderr = ''
  const io = { stdout: { write: (text: string) => (stdout += text) }, stderr: { write: (text: string) => (stderr += text) } }
  const code = await run(argv, env, io)
  return { code, stdout, stderr }
}
