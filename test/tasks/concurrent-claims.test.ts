import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, expect, it } from 'vitest'
import { taskListDir, TaskStore } from '../../src/main/store/tasks/task-store'
import { buildRaceGraph, runClaimRace, verifyRace } from './claim-race'

// Real processes claiming from one list folder: the file lock is what keeps them apart.
let root: string
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'sous-claims-'))
})
afterEach(async () => {
  await rm(root, { recursive: true, force: true })
})

it('gives every task to exactly one of four processes, never before its blockers, and never reuses an id', { timeout: 120_000 }, async () => {
  const dir = taskListDir(root, 'team')
  const store = new TaskStore(dir)
  const graph = await buildRaceGraph(store, 40)
  expect(graph.deleted.size).toBeGreaterThan(0)
  expect([...graph.blockers.values()].some((blockers) => blockers.length > 0)).toBe(true)
  const race = await runClaimRace({ dir, logFile: join(root, 'race.log'), agents: 4, scratch: 3, workMs: 1 })
  expect(await verifyRace(store, graph, race)).toEqual([])
  expect(race.reports.reduce((sum, report) => sum + report.claims.length, 0)).toBe(40)
  expect(race.reports.flatMap((report) => report.created)).toHaveLength(12)
})
