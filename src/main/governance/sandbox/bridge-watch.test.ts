import { spawn } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { sandboxScratch } from '../../../../test/support/sandbox-scratch'

// A host that dies mid-command (a remote `sous host` killed while a sandboxed command runs): its
// sandbox's socat bridges must not outlive it. A real process starts the real sandbox, runs a
// sandboxed `sleep`, names its bridges, and is SIGKILLed: no cleanup of its own can run.
const ROOT = join(import.meta.dirname, '..', '..', '..', '..')
const HOST = join(ROOT, 'test', 'support', 'bridge-host.ts')

let base: string | undefined
afterEach(() => {
  if (base) rmSync(base, { recursive: true, force: true })
})

const alive = (pid: number) => existsSync(`/proc/${pid}`) && !readFileSync(`/proc/${pid}/stat`, 'utf8').includes(') Z ')

describe.runIf(process.platform === 'linux')('the sandbox bridges of a host that dies', () => {
  it('are stopped when the host is killed mid-command', async (ctx) => {
    base = sandboxScratch('.sous-bridge-watch-')
    mkdirSync(join(base, 'project'))
    const host = spawn(process.execPath, ['--import', 'tsx', HOST, join(base, 'project'), join(base, 'home')], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] })
    const line = await new Promise<string>((resolve, reject) => {
      let out = ''
      host.stdout.on('data', (chunk: Buffer) => {
        out += chunk.toString()
        if (out.includes('\n')) resolve(out.split('\n')[0]!)
      })
      host.on('exit', () => reject(new Error(`the host exited first: ${out}`)))
    })
    const said = JSON.parse(line) as { unavailable?: string; bridges?: Array<{ pid: number; socket: string }> }
    if (said.unavailable) {
      host.kill('SIGKILL')
      return ctx.skip(said.unavailable)
    }
    const bridges = said.bridges!
    expect(bridges.length).toBeGreaterThan(0)
    expect(bridges.every((bridge) => alive(bridge.pid))).toBe(true)
    host.kill('SIGKILL')
    const end = Date.now() + 10_000
    while (bridges.some((bridge) => alive(bridge.pid)) && Date.now() < end) await new Promise((resolve) => setTimeout(resolve, 100))
    const left = bridges.filter((bridge) => alive(bridge.pid))
    // Never leave one behind, even when this test fails.
    for (const bridge of left) process.kill(bridge.pid, 'SIGTERM')
    expect(left).toEqual([])
    expect(bridges.filter((bridge) => existsSync(bridge.socket))).toEqual([])
  }, 60_000)
})
