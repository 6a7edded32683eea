import { mkdtempSync, mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { homedir, loadavg } from 'node:os'
import { spawnSync, spawn } from 'node:child_process'
import { SandboxManager } from '@anthropic-ai/sandbox-runtime'
import { BashSandbox } from '/work/wt/sandbox/src/main/governance/sandbox/bash-sandbox'
import { PlaceholderScope } from '/work/wt/sandbox/src/main/governance/sandbox/project-protection'
const base = mkdtempSync(join(homedir(), '.sbprof-'))
const project = join(base, 'p'); mkdirSync(project)
spawnSync('git', ['init', '-q'], { cwd: project })
const s = await BashSandbox.start({ projectRoot: project, home: join(base, 'home') })
if (!s.ok) throw new Error(s.reason)
const sb = s.sandbox
const med = (a: number[]) => a.sort((x, y) => x - y)[a.length >> 1]
const cfg: number[] = [], wrap: number[] = [], run: number[] = [], total: number[] = []
for (let i = 0; i < 20; i++) {
  const t0 = performance.now()
  const scope = new PlaceholderScope(['/tmp'], project)
  const c = sb.commandConfig(scope)
  const t1 = performance.now()
  const w = await SandboxManager.wrapWithSandbox('echo hi', undefined, c, undefined, { commandId: 'x' + i, commandText: 'echo hi' })
  const t2 = performance.now()
  await new Promise((r) => spawn('/bin/bash', ['-c', w], { cwd: project, stdio: 'ignore' }).on('exit', r))
  const t3 = performance.now()
  SandboxManager.cleanupAfterCommand(); scope.release()
  cfg.push(t1 - t0); wrap.push(t2 - t1); run.push(t3 - t2); total.push(t3 - t0)
}
const plain: number[] = []
for (let i = 0; i < 20; i++) { const t = performance.now(); await new Promise((r) => spawn('/bin/bash', ['-c', 'echo hi'], { stdio: 'ignore' }).on('exit', r)); plain.push(performance.now() - t) }
console.log(`load ${loadavg()[0].toFixed(1)}: sous config ${med(cfg).toFixed(1)} ms, library wrap ${med(wrap).toFixed(1)} ms, bwrap run ${med(run).toFixed(1)} ms, total ${med(total).toFixed(1)}; plain bash ${med(plain).toFixed(1)}`)

await sb.dispose()
spawnSync('rm', ['-rf', base])
