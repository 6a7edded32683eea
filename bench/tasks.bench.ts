/**
 * Task-list figures: 8 agent processes claiming from a 200-task dependency graph at once (claims
 * per second, lock retries, and the race's verdict), and TaskList over 1,000 tasks against its
 * 20 ms target. Prints figures; asserts nothing.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { taskListDir, TaskStore } from '../src/main/store/tasks/task-store'
import { runToolCall } from '../src/main/tools/run-tool'
import { taskListTool } from '../src/main/tools/task-list'
import { makeTestWorld } from '../test/support/tools'
import { buildRaceGraph, runClaimRace, verifyRace } from '../test/tasks/claim-race'

const AGENTS = 8
const GRAPH = 200
const LIST_SIZE = 1000

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)]!
}

async function claimRace(root: string): Promise<void> {
  const dir = taskListDir(root, 'race')
  const store = new TaskStore(dir)
  const graph = await buildRaceGraph(store, GRAPH)
  const edges = [...graph.blockers.values()].reduce((sum, blockers) => sum + blockers.length, 0)
  const race = await runClaimRace({ dir, logFile: join(root, 'race.log'), agents: AGENTS, scratch: 5, workMs: 0 })
  const problems = await verifyRace(store, graph, race)
  const claims = race.reports.reduce((sum, report) => sum + report.claims.length, 0)
  const retries = race.reports.reduce((sum, report) => sum + report.retries, 0)
  const acquired = race.reports.reduce((sum, report) => sum + report.acquired, 0)
  const refusals = race.reports.reduce((sum, report) => sum + report.refusals, 0)
  const busy = race.reports.reduce((sum, report) => sum + report.busy, 0)
  const spread = race.reports.map((report) => report.claims.length).join('/')
  console.log(`claim race: ${AGENTS} processes, ${GRAPH} tasks, ${edges} dependencies, ${graph.deleted.size} ids deleted before, ${AGENTS * 5} created and deleted during`)
  console.log(`  ${claims} claims in ${(race.wallMs / 1000).toFixed(2)} s: ${(claims / (race.wallMs / 1000)).toFixed(1)} claims/s (per agent ${spread})`)
  console.log(`  lock: ${acquired} acquisitions, ${retries} retries (${(retries / acquired).toFixed(2)} per acquisition), ${busy} answers "busy, try again"; ${refusals} claims refused (taken or blocked meanwhile)`)
  console.log(`  every task claimed exactly once, none before its blockers, no id reused: ${problems.length === 0 ? 'ok' : `FAILED\n    ${problems.slice(0, 10).join('\n    ')}`}`)
  // The same graph claimed by one agent alone: the floor a single process reaches, for the ratio.
  const soloDir = taskListDir(root, 'solo')
  const solo = new TaskStore(soloDir)
  await buildRaceGraph(solo, GRAPH)
  const started = performance.now()
  for (const task of (await solo.list()).tasks) {
    await solo.update(task.id, { status: 'in_progress' }, 'solo')
    await solo.update(task.id, { status: 'completed' }, 'solo')
  }
  const soloRate = GRAPH / ((performance.now() - started) / 1000)
  console.log(`  one agent alone, in id order: ${soloRate.toFixed(1)} claims/s; ${AGENTS} agents reach ${((claims / (race.wallMs / 1000)) / soloRate).toFixed(2)}× that`)
}

async function listSpeed(): Promise<void> {
  const world = makeTestWorld('sous-bench-tasks-')
  try {
    const store = new TaskStore(taskListDir(world.projectDataDir, 'big'))
    for (let index = 1; index <= LIST_SIZE; index++) {
      const made = await store.create({ subject: `Task ${index}`, description: `Step ${index} of a long plan`, activeForm: `Doing step ${index}` }, 'main')
      if (!made.ok) throw new Error(made.error)
      if (index > 1 && index % 3 === 0) await store.update(made.task.id, { addBlockedBy: [String(index - 1)] }, 'main')
    }
    const ctx = world.ctx({ tasks: { store, listId: 'big', ownerOf: (agentId) => agentId } })
    const times: number[] = []
    let lines = 0
    for (let run = 0; run < 30; run++) {
      const started = performance.now()
      const result = await runToolCall(taskListTool, {}, ctx)
      times.push(performance.now() - started)
      lines = String(result.content).split('\n').length
    }
    const warm = median(times.slice(5))
    // After another agent's change: this store re-reads only what the journal says changed.
    const other = new TaskStore(store.dir)
    const changed: number[] = []
    for (let run = 0; run < 20; run++) {
      const touched = await other.update(String(1 + ((run * 37) % LIST_SIZE)), { metadata: { run } }, 'other')
      if (!touched.ok) throw new Error(touched.error)
      const started = performance.now()
      await runToolCall(taskListTool, {}, ctx)
      changed.push(performance.now() - started)
    }
    // Cold: a store that never read the folder (a new session or process).
    const cold: number[] = []
    for (let run = 0; run < 10; run++) {
      const fresh = world.ctx({ tasks: { store: new TaskStore(store.dir), listId: 'big', ownerOf: (agentId) => agentId } })
      const started = performance.now()
      await runToolCall(taskListTool, {}, fresh)
      cold.push(performance.now() - started)
    }
    const changedMedian = median(changed)
    const coldMedian = median(cold)
    const verdict = (ms: number): string => `target <= 20 ms: ${ms <= 20 ? 'ok' : 'MISSED'}, ratio ${(ms / 20).toFixed(2)}`
    console.log(`TaskList over ${LIST_SIZE} tasks (${lines} lines):`)
    console.log(`  unchanged since the last read: median ${warm.toFixed(1)} ms (${verdict(warm)})`)
    console.log(`  right after another agent changed a task: median ${changedMedian.toFixed(1)} ms (${verdict(changedMedian)})`)
    console.log(`  first read of a new session (every file): median ${coldMedian.toFixed(1)} ms (ratio ${(coldMedian / 20).toFixed(2)})`)
  } finally {
    await world.cleanup()
  }
}

export default async function bench(): Promise<void> {
  const root = mkdtempSync(join(tmpdir(), 'sous-bench-claims-'))
  try {
    await claimRace(root)
  } finally {
    rmSync(root, { recursive: true, force: true })
  }
  await listSpeed()
}
