import { spawn } from 'node:child_process'
import { childEnvironment } from '../../base/child-env'

/** What a command run to its end printed, and how it ended (`exitCode` null: it could not start or was killed). */
export interface CollectedRun {
  exitCode: number | null
  stdout: string
  stderr: string
}

/**
 * Runs a (wrapped) script with bash in its own process group and collects its output; past
 * `timeoutMs` the whole group is killed. For probes and tests: the Bash tool uses a PTY instead.
 */
export function runCollected(script: string, cwd: string, timeoutMs: number): Promise<CollectedRun> {
  return new Promise<CollectedRun>((done) => {
    const child = spawn('/bin/bash', ['-c', script], { cwd, env: childEnvironment(process.env), detached: true, stdio: ['ignore', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    const timer = setTimeout(() => {
      try {
        if (child.pid) process.kill(-child.pid, 'SIGKILL')
      } catch {
        // gone
      }
    }, timeoutMs)
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d))
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d))
    child.on('error', (e) => {
      clearTimeout(timer)
      done({ exitCode: null, stdout, stderr: `${stderr}${e.message}` })
    })
    child.on('close', (code) => {
      clearTimeout(timer)
      done({ exitCode: code, stdout, stderr })
    })
  })
}
