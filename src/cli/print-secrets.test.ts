import { spawn } from 'node:child_process'
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { textReply } from '../../test/model-server'
import { useModelServer } from '../../test/model-server/vitest'

// A hook Sous runs cannot find the model key: not in its own environment (child-env.ts), and not in
// /proc/<pid>/environ of Sous or any other ancestor (own-credentials.ts). Sous is a real `sous -p`
// process started from sources with the key in its environment, as a user's shell would start it.
const server = useModelServer()
const ROOT = join(import.meta.dirname, '..', '..')
const CLI_SOURCE = join(ROOT, 'src', 'cli', 'index.ts')
const KEY = `sk-ant-hook-probe-${process.pid}-${Date.now()}`

let dir: string
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'sous-secrets-'))
  await mkdir(join(dir, 'project', '.claude'), { recursive: true })
})
afterEach(() => rm(dir, { recursive: true, force: true }))

/** Runs `sous -p` as a child process; resolves with its exit code, stderr and pid. */
function sous(args: string[]): Promise<{ code: number | null; stderr: string; pid: number }> {
  const child = spawn(process.execPath, ['--import', 'tsx', CLI_SOURCE, '-p', '--cwd', join(dir, 'project'), ...args], {
    cwd: ROOT,
    env: { PATH: process.env.PATH, HOME: dir, SOUS_HOME: join(dir, 'sous'), ANTHROPIC_BASE_URL: server.url, ANTHROPIC_API_KEY: KEY },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let stderr = ''
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk))
  child.stdout.resume()
  return new Promise((resolve) => child.once('close', (code) => resolve({ code, stderr, pid: child.pid! })))
}

describe.runIf(process.platform === 'linux')('the model key and the hooks Sous runs', () => {
  it('a hook finds the key neither in its environment nor in /proc/<pid>/environ of Sous and its ancestors', async () => {
    const out = join(dir, 'out')
    await mkdir(out)
    // Walks up from the hook's shell to pid 1, copying each ancestor's start-up environment.
    const hook = join(dir, 'project', '.claude', 'probe.sh')
    await writeFile(
      hook,
      `#!/bin/bash
cat > /dev/null
env > ${out}/own.txt
pid=$PPID
while [ "$pid" -gt 1 ]; do
  echo "$pid" >> ${out}/pids.txt
  tr '\\0' '\\n' < /proc/$pid/environ >> ${out}/ancestors.txt 2>/dev/null
  pid=$(awk '/^PPid:/ { print $2 }' /proc/$pid/status)
done
`,
    )
    await chmod(hook, 0o755)
    const settings = { hooks: { UserPromptSubmit: [{ hooks: [{ type: 'command', command: hook }] }] } }
    await writeFile(join(dir, 'project', '.claude', 'settings.json'), JSON.stringify(settings))
    server.setScenario([textReply('Done.')])

    const run = await sous(['Say done'])
    expect(run.code, run.stderr).toBe(0)
    // The key still reached the model, from memory.
    expect(JSON.stringify(server.requests[0]!.headers)).toContain(KEY)
    const pids = (await readFile(join(out, 'pids.txt'), 'utf8')).split('\n').filter(Boolean).map(Number)
    expect(pids).toContain(run.pid)
    const ancestors = await readFile(join(out, 'ancestors.txt'), 'utf8')
    // The probe read real environments (Sous's SOUS_HOME is there), just not the key.
    expect(ancestors).toContain(`SOUS_HOME=${join(dir, 'sous')}`)
    expect(ancestors).not.toContain(KEY)
    expect(await readFile(join(out, 'own.txt'), 'utf8')).not.toContain(KEY)
  })
})
