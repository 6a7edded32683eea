/**
 * One agent of a claim race, as its own process (`node --import tsx claim-worker.ts <list-dir>
 * <name> <log-file> <scratch-count> <work-ms>`). It prints `ready`, waits for a line on stdin, then:
 * creates and deletes `scratch-count` scratch tasks (id churn), and claims, works on and completes
 * ready tasks until every task is completed. Each claim is logged after the store granted it and
 * each completion before the store records it, so in the shared log (O_APPEND, one line per write)
 * a claim that came before its blocker's completion line proves an early claim.
 * Its last stdout line is a JSON report.
 */
import { appendFileSync } from 'node:fs'
import { once } from 'node:events'
import { setTimeout as sleep } from 'node:timers/promises'
import { openBlockers, type TaskMap } from '../../src/main/store/tasks/graph'
import { TaskStore } from '../../src/main/store/tasks/task-store'

const [dir, name, logFile, scratchArg, workArg] = process.argv.slice(2)
if (!dir || !name || !logFile) throw new Error('usage: claim-worker <list-dir> <name> <log-file> [scratch-count] [work-ms]')
const scratchCount = Number(scratchArg ?? 0)
const workMs = Number(workArg ?? 0)
const store = new TaskStore(dir)
const report = { name, claims: [] as string[], created: [] as string[], refusals: 0, busy: 0, failures: [] as string[], retries: 0, acquired: 0, claimMs: 0 }
const log = (line: string): void => appendFileSync(logFile, `${line}\n`)

process.stdout.write('ready\n')
await once(process.stdin, 'data')
process.stdin.pause()

/** Runs a change until the list is not busy (as an agent would try again); a real refusal is returned. */
async function untilNotBusy<R extends { ok: boolean; error?: string }>(change: () => Promise<R>): Promise<R> {
  for (let attempt = 1; ; attempt++) {
    const result = await change()
    if (result.ok || !/busy/.test(result.error ?? '') || attempt === 20) return result
    report.busy++
  }
}

for (let index = 0; index < scratchCount; index++) {
  const created = await untilNotBusy(() => store.create({ subject: `scratch ${name} ${index}`, description: 'created and deleted to churn ids', metadata: { scratch: true } }, name))
  if (!created.ok) report.failures.push(`create: ${created.error}`)
  else {
    report.created.push(created.task.id)
    const deleted = await untilNotBusy(() => store.update(created.task.id, { status: 'deleted' }, name))
    if (!deleted.ok) report.failures.push(`delete #${created.task.id}: ${deleted.error}`)
  }
}

const started = performance.now()
for (;;) {
  const { tasks } = await store.list()
  const real = tasks.filter((task) => task.metadata?.['scratch'] !== true)
  if (real.every((task) => task.status === 'completed')) break
  const byId: TaskMap = new Map(tasks.map((task) => [task.id, task]))
  const ready = real.filter((task) => task.status === 'pending' && !task.owner && openBlockers(task, byId).length === 0)
  if (ready.length === 0) {
    await sleep(1)
    continue
  }
  // Among the first few, so agents collide often (the point of the race).
  const pick = ready[Math.floor(Math.random() * Math.min(3, ready.length))]!
  const claim = await store.update(pick.id, { status: 'in_progress' }, name)
  if (!claim.ok) {
    if (/busy/.test(claim.error)) report.busy++
    else report.refusals++
    continue
  }
  log(`claim ${pick.id} ${name}`)
  report.claims.push(pick.id)
  if (workMs > 0) await sleep(workMs)
  log(`complete ${pick.id} ${name}`)
  const done = await untilNotBusy(() => store.update(pick.id, { status: 'completed' }, name))
  if (!done.ok) report.failures.push(`complete #${pick.id}: ${done.error}`)
}
report.claimMs = performance.now() - started
Object.assign(report, store.lockStats)
process.stdout.write(`${JSON.stringify(report)}\n`)
