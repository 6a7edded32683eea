/**
 * A claim race between real processes over one task list, and its verdict. Shared by the test
 * (small) and the benchmark (8 agents, 200 tasks).
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { TaskStore } from '../../src/main/store/tasks/task-store'

const ROOT = join(import.meta.dirname, '..', '..')
const WORKER = join(import.meta.dirname, 'claim-worker.ts')

/** What one agent process reports. */
export interface AgentReport {
  name: string
  claims: string[]
  created: string[]
  refusals: number
  /** Completions answered "busy" and tried again. */
  busy: number
  failures: string[]
  retries: number
  acquired: number
  claimMs: number
}

/** The graph a race starts from. */
export interface RaceGraph {
  /** Task id → the ids it is blocked by. */
  blockers: Map<string, string[]>
  /** Ids created and deleted before the race: none may come back. */
  deleted: Set<string>
  /** The highest id handed out before the race. */
  highest: number
}

/**
 * Builds a dependency graph of `size` tasks (each blocked by up to two of the ten before it, so it
 * is acyclic and has long chains) with deletions mixed in, so some ids are gone before the race.
 */
export async function buildRaceGraph(store: TaskStore, size: number): Promise<RaceGraph> {
  const blockers = new Map<string, string[]>()
  const deleted = new Set<string>()
  const ids: string[] = []
  let highest = 0
  let seed = 42
  const random = (): number => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31)
  while (ids.length < size) {
    const made = await store.create({ subject: `task ${ids.length + 1}`, description: 'part of the race graph' }, 'setup')
    if (!made.ok) throw new Error(made.error)
    highest = Number(made.task.id)
    // Every seventh task is deleted again: its id must never be handed out twice.
    if (highest % 7 === 0) {
      const gone = await store.update(made.task.id, { status: 'deleted' }, 'setup')
      if (!gone.ok) throw new Error(gone.error)
      deleted.add(made.task.id)
      continue
    }
    const recent = ids.slice(-10)
    const picked = [...new Set([0, 1].map(() => recent[Math.floor(random() * recent.length)]).filter((id): id is string => id !== undefined && random() < 0.6))]
    if (picked.length > 0) {
      const linked = await store.update(made.task.id, { addBlockedBy: picked }, 'setup')
      if (!linked.ok) throw new Error(linked.error)
    }
    blockers.set(made.task.id, picked)
    ids.push(made.task.id)
  }
  return { blockers, deleted, highest }
}

/** Runs `agents` worker processes against the list at once; resolves with their reports and the shared log. */
export async function runClaimRace(o: { dir: string; logFile: string; agents: number; scratch: number; workMs: number; timeoutMs?: number }): Promise<{ reports: AgentReport[]; log: string[]; wallMs: number }> {
  const children: ChildProcess[] = []
  try {
    const outputs = Array.from({ length: o.agents }, (_, index) => {
      const child = spawn(process.execPath, ['--import', 'tsx', WORKER, o.dir, `agent-${index + 1}`, o.logFile, String(o.scratch), String(o.workMs)], { cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'] })
      children.push(child)
      return collect(child)
    })
    await Promise.all(outputs.map((output) => output.ready))
    const started = performance.now()
    for (const child of children) child.stdin!.write('go\n')
    const timeout = new Promise<never>((_, reject) => setTimeout(() => reject(new Error('the claim race did not finish in time')), o.timeoutMs ?? 120_000).unref())
    const texts = await Promise.race([Promise.all(outputs.map((output) => output.done)), timeout])
    const wallMs = performance.now() - started
    const reports = texts.map((text) => JSON.parse(text.trim().split('\n').at(-1)!) as AgentReport)
    const log = (await readFile(o.logFile, 'utf8')).split('\n').filter(Boolean)
    return { reports, log, wallMs }
  } finally {
    for (const child of children) if (child.exitCode === null) child.kill('SIGKILL')
  }
}

/** Every broken promise of the race, as sentences (empty when it went right). */
export async function verifyRace(store: TaskStore, graph: RaceGraph, race: { reports: AgentReport[]; log: string[] }): Promise<string[]> {
  const problems: string[] = []
  for (const report of race.reports) problems.push(...report.failures.map((failure) => `${report.name}: ${failure}`))
  const claimedBy = new Map<string, string[]>()
  for (const report of race.reports) for (const id of report.claims) claimedBy.set(id, [...(claimedBy.get(id) ?? []), report.name])
  for (const id of graph.blockers.keys()) {
    const owners = claimedBy.get(id) ?? []
    if (owners.length !== 1) problems.push(`task #${id} was claimed ${owners.length} times (${owners.join(', ')})`)
  }
  const position = new Map<string, number>()
  race.log.forEach((line, index) => {
    const [kind, id] = line.split(' ')
    if (kind === 'complete') position.set(id!, index)
  })
  race.log.forEach((line, index) => {
    const [kind, id] = line.split(' ')
    if (kind !== 'claim') return
    for (const blocker of graph.blockers.get(id!) ?? []) {
      if ((position.get(blocker) ?? Infinity) > index) problems.push(`task #${id} was claimed before its blocker #${blocker} was completed`)
    }
  })
  const created = race.reports.flatMap((report) => report.created)
  if (new Set(created).size !== created.length) problems.push('an id was handed out twice during the race')
  for (const id of created) if (graph.deleted.has(id) || Number(id) <= graph.highest) problems.push(`id ${id} was reused`)
  const { tasks, problems: files } = await store.list()
  problems.push(...files.map((file) => `${file.file}: ${file.message}`))
  for (const task of tasks) {
    if (task.status !== 'completed') problems.push(`task #${task.id} ended ${task.status}`)
    const claimer = claimedBy.get(task.id)?.[0]
    if (claimer && task.owner !== claimer) problems.push(`task #${task.id} is owned by ${task.owner}, but ${claimer} claimed it`)
  }
  if (tasks.length !== graph.blockers.size) problems.push(`${tasks.length} tasks at the end, ${graph.blockers.size} expected`)
  return problems
}

function collect(child: ChildProcess): { ready: Promise<void>; done: Promise<string> } {
  let stdout = ''
  let stderr = ''
  let markReady: () => void = () => {}
  const ready = new Promise<void>((resolve) => (markReady = resolve))
  child.stdout!.on('data', (chunk: Buffer) => {
    stdout += chunk.toString()
    if (stdout.startsWith('ready\n')) markReady()
  })
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
  const done = new Promise<string>((resolve, reject) => {
    child.on('error', reject)
    child.on('exit', (code) => (code === 0 ? resolve(stdout.slice('ready\n'.length)) : reject(new Error(`a claim worker exited with ${code}: ${stderr.slice(-2000)}`))))
  })
  // A worker that dies before "ready" must not leave the race waiting forever.
  void done.catch(() => markReady())
  return { ready, done }
}
