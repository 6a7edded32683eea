// A process that starts the sandbox and dies mid-command, for src/main/governance/sandbox/bridge-watch.test.ts: prints the
// bridges it owns (one JSON line) once a sandboxed `sleep` runs, then waits to be killed.
import { BashSandbox } from '../../src/main/governance/sandbox/bash-sandbox'
import { findBridges } from '../../src/main/governance/sandbox/bridge-watch'

const [project, home] = process.argv.slice(2)
const started = await BashSandbox.start({ projectRoot: project!, home: home! })
if (!started.ok) {
  process.stdout.write(`${JSON.stringify({ unavailable: started.reason })}\n`)
  process.exit(0)
}
void started.sandbox.run('sleep 60', { cwd: project!, timeoutMs: 120_000 })
setTimeout(() => process.stdout.write(`${JSON.stringify({ bridges: findBridges(process.pid) })}\n`), 500)
setInterval(() => undefined, 1_000)
