/**
 * Auto mode's added latency per tool call: the same Write call through the whole gate, allowed
 * without a classifier (acceptEdits) and allowed by auto mode's classifier (one small request over
 * the real SDK to the scripted server on loopback, which answers at once). The difference is what
 * Sous itself adds per classified call; a real model adds its own response time on top (the
 * request is ~300 input tokens and a one-line answer). Prints p50/p95; asserts nothing.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { textReply } from '../test/model-server'
import { startModelServer } from '../test/model-server/server'
import { UnattendedAnswerer } from '../src/main/governance/approvals/answerer'
import { autoAskFile } from '../src/main/governance/auto/ask-patterns'
import { SessionGrants } from '../src/main/governance/decide/session'
import { createPermissionGate } from '../src/main/governance/gate/gate'
import { HookRunner } from '../src/main/governance/hooks/runner'
import type { PermissionMode } from '../src/main/governance/types'
import { SMALL_FAST_MODEL } from '../src/main/services/model/ask'
import { ModelCache } from '../src/main/services/model/cache'
import { writeTool } from '../src/main/tools/write'
import { DenialLog } from '../src/main/governance/approvals/denials'

const RUNS = 200

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!
}

export default async function bench(): Promise<void> {
  const base = mkdtempSync(join(tmpdir(), 'sous-bench-auto-'))
  const project = join(base, 'project')
  const sousHome = join(base, 'home')
  mkdirSync(join(project, '.claude'), { recursive: true })
  mkdirSync(sousHome)
  const server = await startModelServer()
  server.setScenario([{ ...textReply('allow: the user asked for this file'), forModel: SMALL_FAST_MODEL }], { loop: true })
  const models = new ModelCache({ env: { ANTHROPIC_BASE_URL: server.url, ANTHROPIC_API_KEY: 'bench-key' } })
  const gate = (mode: PermissionMode) =>
    createPermissionGate({
      projectRoot: project,
      cwd: project,
      sousHome,
      home: base,
      managedPath: join(base, 'managed.json'),
      mode,
      approvals: new UnattendedAnswerer(new SessionGrants(project)),
      hooks: new HookRunner({ hooks: [], sessionId: 'b', projectRoot: project }),
      sessionId: 'b',
      denials: new DenialLog(),
      autoMode: { ask: models.hookAsk(), defaultModel: SMALL_FAST_MODEL, patternsFile: autoAskFile(join(sousHome, 'data')) },
    })
  const time = async (mode: PermissionMode): Promise<number[]> => {
    const g = gate(mode)
    await g.userPromptSubmit('Create the notes file in the project')
    const input = { file_path: join(project, 'notes.txt'), content: 'x\n' }
    // Warm up (the SDK's first connection, the settings' first load).
    for (let i = 0; i < 10; i++) await g.canUseTool(writeTool, input, `w${i}`)
    const times: number[] = []
    for (let i = 0; i < RUNS; i++) {
      const start = performance.now()
      const verdict = await g.canUseTool(writeTool, input, `t${i}`)
      times.push(performance.now() - start)
      if (verdict.behavior !== 'allow') throw new Error(`the ${mode} call was not allowed: ${JSON.stringify(verdict)}`)
    }
    return times
  }
  try {
    const without = await time('acceptEdits')
    const withClassifier = await time('auto')
    const line = (name: string, times: number[]) => `${name}: p50 ${percentile(times, 50).toFixed(2)} ms, p95 ${percentile(times, 95).toFixed(2)} ms`
    console.log(line('Write allowed without a classifier (acceptEdits)', without))
    console.log(line('Write allowed by the auto-mode classifier (loopback, instant model)', withClassifier))
    console.log(`auto mode adds p50 ${(percentile(withClassifier, 50) - percentile(without, 50)).toFixed(2)} ms, p95 ${(percentile(withClassifier, 95) - percentile(without, 95)).toFixed(2)} ms per classified call, before the model's own response time`)
  } finally {
    await server.close()
    rmSync(base, { recursive: true, force: true })
  }
}
