import { execFileSync, spawn, type ChildProcess } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir, userInfo } from 'node:os'
import { join } from 'node:path'

/** A throwaway sshd on 127.0.0.1 and the client configuration that reaches it. */
export interface TestSshd {
  /** The alias the client config names (`sous-test`). */
  readonly destination: string
  /** What `SOUS_SSH` should be: `ssh -F <config>`. */
  readonly sshCommand: string
  readonly port: number
  /** The folder holding keys, configs and the known_hosts file. */
  readonly dir: string
  readonly clientConfig: string
  /** Replaces known_hosts with a different host key (a host-key mismatch). */
  forgeKnownHost(): void
  /** Stops sshd and removes the folder. */
  close(): Promise<void>
}

const SSHD = '/usr/sbin/sshd'

/** Why sshd tests cannot run here (no sshd, no ssh, not root), or undefined when they can. */
export function sshdProblem(): string | undefined {
  if (process.platform !== 'linux') return `the sshd tests run on Linux, not ${process.platform}`
  if (!existsSync(SSHD)) return 'no sshd (install openssh-server; .ci/run does)'
  try {
    execFileSync('ssh', ['-V'], { stdio: 'ignore' })
  } catch {
    return 'no ssh client (install openssh-client)'
  }
  if (process.getuid?.() !== 0) return 'sshd needs root to log a user in (run the suite as root, as .ci/run does)'
  return undefined
}

/**
 * Starts `sshd -D -e` on 127.0.0.1 with a fresh host key, a fresh user key in authorized_keys and
 * a client config (`Host sous-test`) with a known_hosts file that holds exactly that host key and
 * `StrictHostKeyChecking yes`. Logs in as the current user (root, `prohibit-password`). Nothing
 * listens beyond loopback.
 */
export async function startTestSshd(): Promise<TestSshd> {
  const dir = mkdtempSync(join(tmpdir(), 'sous-sshd-'))
  const key = (name: string): void => void execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', name, '-f', join(dir, name)])
  key('host_key')
  key('user_key')
  key('other_host_key')
  writeFileSync(join(dir, 'authorized_keys'), readFileSync(join(dir, 'user_key.pub')))
  const port = await freePort()
  const user = userInfo().username
  const sshdConfig = join(dir, 'sshd_config')
  writeFileSync(
    sshdConfig,
    [
      `Port ${port}`,
      'ListenAddress 127.0.0.1',
      `HostKey ${join(dir, 'host_key')}`,
      `PidFile ${join(dir, 'sshd.pid')}`,
      `AuthorizedKeysFile ${join(dir, 'authorized_keys')}`,
      'UsePAM no',
      'StrictModes no',
      'PasswordAuthentication no',
      'KbdInteractiveAuthentication no',
      'PubkeyAuthentication yes',
      'PermitRootLogin prohibit-password',
      `AllowUsers ${user}`,
      'PermitUserEnvironment no',
      'X11Forwarding no',
      'AllowTcpForwarding no',
      'LogLevel ERROR',
      '',
    ].join('\n'),
  )
  // sshd refuses to start without its privilege-separation folder.
  mkdirSync('/run/sshd', { recursive: true, mode: 0o755 })
  const knownHosts = join(dir, 'known_hosts')
  const hostLine = (file: string): string => `[127.0.0.1]:${port} ${readFileSync(join(dir, file), 'utf8').split(' ').slice(0, 2).join(' ')}\n`
  writeFileSync(knownHosts, hostLine('host_key.pub'))
  const clientConfig = join(dir, 'ssh_config')
  writeFileSync(
    clientConfig,
    [
      'Host sous-test',
      '  HostName 127.0.0.1',
      `  Port ${port}`,
      `  User ${user}`,
      `  IdentityFile ${join(dir, 'user_key')}`,
      '  IdentitiesOnly yes',
      '  IdentityAgent none',
      `  UserKnownHostsFile ${knownHosts}`,
      '  GlobalKnownHostsFile /dev/null',
      '  StrictHostKeyChecking yes',
      '  ControlMaster no',
      '  ConnectTimeout 10',
      '',
    ].join('\n'),
  )
  const daemon: ChildProcess = spawn(SSHD, ['-f', sshdConfig, '-D', '-e'], { stdio: ['ignore', 'ignore', 'pipe'] })
  let log = ''
  daemon.stderr?.on('data', (chunk: Buffer) => (log += chunk.toString()))
  await waitForPort(port, () => (daemon.exitCode !== null ? `sshd exited (${daemon.exitCode}): ${log}` : undefined))
  return {
    destination: 'sous-test',
    sshCommand: `ssh -F ${clientConfig}`,
    port,
    dir,
    clientConfig,
    forgeKnownHost: () => writeFileSync(knownHosts, hostLine('other_host_key.pub')),
    async close() {
      if (daemon.exitCode === null) {
        daemon.kill('SIGTERM')
        await new Promise((resolve) => daemon.once('exit', resolve))
      }
      rmSync(dir, { recursive: true, force: true })
    },
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0))
    })
  })
}

async function waitForPort(port: number, failed: () => string | undefined): Promise<void> {
  const { connect } = await import('node:net')
  for (let attempt = 0; attempt < 100; attempt++) {
    const problem = failed()
    if (problem) throw new Error(problem)
    const open = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1', () => {
        socket.destroy()
        resolve(true)
      })
      socket.once('error', () => resolve(false))
    })
    if (open) return
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  throw new Error(`sshd did not listen on 127.0.0.1:${port}`)
}
