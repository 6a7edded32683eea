import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ROOT } from '../../../../test/support/remote-host'
import { skippedUnless } from '../../../../test/support/sandbox-scratch'
import { devcontainerCommand, devcontainerUp } from './devcontainer'
import { remoteTransport } from './transport'
import { connectRemoteHost } from './client'
import { SOUS_VERSION } from '../version'

// The real devcontainer CLI (@devcontainers/cli, or SOUS_DEVCONTAINER / `devcontainer` on PATH)
// against the real Docker. Where the CLI is missing these skip; where Docker's daemon is not
// running, only the failure path runs (the CLI's own message must reach the user).
const env = { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: process.env['HOME'] ?? '/root', ...(process.env['SOUS_DEVCONTAINER'] && { SOUS_DEVCONTAINER: process.env['SOUS_DEVCONTAINER'] }) }
const cli = devcontainerCommand(env, true)
const cliProblem = runs(cli, ['--version']) ? undefined : 'no devcontainer CLI (npm ci installs @devcontainers/cli)'
const dockerProblem = runs(['docker'], ['info']) ? undefined : '`docker info` fails (no Docker daemon)'
let workspace: string

beforeAll(() => {
  workspace = mkdtempSync(join(tmpdir(), 'sous-devcontainer-'))
  mkdirSync(join(workspace, '.devcontainer'))
  // The container sees this checkout at /sous, and starts Sous from it (Node is in the image).
  writeFileSync(join(workspace, '.devcontainer', 'devcontainer.json'), JSON.stringify({ image: 'node:20', mounts: [`source=${ROOT},target=/sous,type=bind`] }))
})
afterAll(async () => {
  await rm(workspace, { recursive: true, force: true })
})

describe.skipIf(cliProblem !== undefined || dockerProblem === undefined)(skippedUnless('devcontainer up without a Docker daemon', cliProblem ?? (dockerProblem ? undefined : 'Docker runs here: the full test below runs instead')), () => {
  it('reports the CLI’s own failure with its exit code', async () => {
    const up = await devcontainerUp({ place: { local: true }, workspaceFolder: workspace, env })
    expect(up.ok).toBe(false)
    if (up.ok) return
    expect(up.code).toBe(1)
    expect(up.message).toContain(`devcontainer up here failed for ${workspace} (exit 1)`)
    expect(up.message).toMatch(/docker/i)
  }, 120_000)
})

describe.skipIf(cliProblem !== undefined || dockerProblem !== undefined)(skippedUnless('a Sous host in a real dev container', cliProblem ?? dockerProblem), () => {
  it('brings the container up, and speaks the protocol with the Sous inside it', async () => {
    const transport = remoteTransport(
      { destination: 'devcontainer', folder: workspace, remoteSous: 'node /sous/bin/sous.js', transport: { kind: 'devcontainer', local: true } },
      { env, hostArgs: ['--no-daemon'] },
    )
    const prepared = await transport.prepare()
    expect(prepared, JSON.stringify(prepared)).toMatchObject({ ok: true })
    const pipe = transport.open()
    const connected = await connectRemoteHost({ input: pipe.input, output: pipe.output, version: SOUS_VERSION })
    expect(connected.ok, connected.ok ? '' : connected.message + (await pipe.failure())).toBe(true)
    if (!connected.ok || !prepared.ok) return
    const opened = await connected.client.invoke('project.open', { path: prepared.folder })
    expect(opened).toMatchObject({ ok: true })
    connected.client.close()
    pipe.kill()
  }, 600_000)
})

function runs(argv: string[], args: string[]): boolean {
  try {
    execFileSync(argv[0]!, [...argv.slice(1), ...args], { stdio: 'ignore', timeout: 30_000 })
    return true
  } catch {
    return false
  }
}
