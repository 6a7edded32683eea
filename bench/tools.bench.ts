/**
 * Tool-layer figures: dispatch overhead, Grep vs rg, Bash round trip, 20 MB through Bash with
 * event-loop lag. Prints figures and ratios against the targets; asserts nothing.
 */
import { spawnSync } from 'node:child_process'
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { monitorEventLoopDelay } from 'node:perf_hooks'
import { z } from 'zod'
import { ripgrepCommand } from '../src/main/base/ripgrep'
import { NodePtyService } from '../src/main/pty/node-pty-service'
import { createBashTool } from '../src/main/tools/bash'
import { defineTool } from '../src/main/tools/define-tool'
import { grepTool } from '../src/main/tools/grep'
import { runToolCall } from '../src/main/tools/run-tool'
import { makeTestWorld } from '../test/support/tools'

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)]!
}

async function timeIt(runs: number, fn: () => Promise<unknown>): Promise<number[]> {
  const times: number[] = []
  for (let i = 0; i < runs; i++) {
    const start = performance.now()
    await fn()
    times.push(performance.now() - start)
  }
  return times
}

const fmt = (ms: number) => `${ms.toFixed(3)} ms`

export default async function bench(): Promise<void> {
  const world = makeTestWorld('sous-bench-tools-')
  const pty = new NodePtyService()
  try {
    // 1. Dispatch overhead of a trivial read-only tool.
    const noop = defineTool({
      name: 'Noop',
      label: 'Noop',
      description: 'Does nothing.',
      input: z.strictObject({ value: z.string() }),
      isReadOnly: () => true,
      summarize: () => 'noop',
      execute: async (args) => ({ content: args.value }),
    })
    const ctx = world.ctx()
    await timeIt(1000, () => runToolCall(noop, { value: 'x' }, ctx))
    const dispatch = median(await timeIt(10_000, () => runToolCall(noop, { value: 'x' }, ctx)))
    console.log(`dispatch (runToolCall, trivial tool): median ${fmt(dispatch)}  (target <= 1 ms: ${dispatch <= 1 ? 'ok' : 'MISSED'})`)

    // 2. Grep over 20,000 files vs rg directly.
    const tree = join(world.project, 'tree')
    for (let d = 0; d < 200; d++) {
      const dir = join(tree, `dir${d}`)
      mkdirSync(dir, { recursive: true })
      for (let f = 0; f < 100; f++) {
        const needle = (d * 100 + f) % 50 === 0 ? 'NEEDLE_TOKEN\n' : ''
        writeFileSync(join(dir, `file${f}.ts`), `export const value${f} = ${d}\n// filler line\n${needle}`)
      }
    }
    const rgArgs = ['--hidden', '--glob', '!.git', '--files-with-matches', '--regexp', 'NEEDLE_TOKEN', '--', tree]
    const rg = await ripgrepCommand()
    spawnSync(rg, rgArgs) // warm the page cache
    const direct = median(await timeIt(10, async () => spawnSync(rg, rgArgs)))
    const viaTool = median(await timeIt(10, () => runToolCall(grepTool, { pattern: 'NEEDLE_TOKEN', path: tree }, ctx)))
    const ratio = viaTool / direct
    console.log(`grep 20,000 files: rg ${fmt(direct)}, Grep tool ${fmt(viaTool)}, ratio ${ratio.toFixed(2)}x  (target <= 1.3x: ${ratio <= 1.3 ? 'ok' : 'MISSED'})`)

    // 3. Bash `echo hi` round trip.
    const bash = createBashTool({ pty })
    await timeIt(3, () => runToolCall(bash, { command: 'echo hi' }, world.ctx()))
    const echo = median(await timeIt(30, () => runToolCall(bash, { command: 'echo hi' }, world.ctx())))
    console.log(`bash 'echo hi' round trip: median ${fmt(echo)}  (target <= 30 ms: ${echo <= 30 ? 'ok' : 'MISSED'})`)

    // 4. 20 MB of output through Bash, with event-loop lag.
    const lag = monitorEventLoopDelay({ resolution: 10 })
    lag.enable()
    const start = performance.now()
    const result = await runToolCall(bash, { command: 'head -c 20000000 /dev/zero | tr "\\0" "x" | fold -w 100' }, world.ctx())
    const elapsed = performance.now() - start
    lag.disable()
    const chars = (result.details as { outputChars?: number } | undefined)?.outputChars ?? 0
    console.log(
      `bash 20 MB output: ${fmt(elapsed)} (${((chars / 1e6 / elapsed) * 1000).toFixed(1)} MB/s of terminal chars), ` +
        `result ${String(result.content).length} chars, event-loop lag p50 ${(lag.percentile(50) / 1e6).toFixed(1)} ms, ` +
        `p99 ${(lag.percentile(99) / 1e6).toFixed(1)} ms, max ${(lag.max / 1e6).toFixed(1)} ms`,
    )
  } finally {
    await world.cleanup()
    await pty.dispose()
  }
}
