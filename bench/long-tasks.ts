/**
 * What a long task was made of, from the renderer's CPU profile: how much of its wall time the
 * main thread ran (sampled) and how much it sat preempted — on a loaded machine (the bench shares
 * two cores with other work) Chromium reports a task as long when the OS took the CPU away in the
 * middle of it, which is no work of the page's. A gap between two samples of over 10 ms is counted
 * as time the thread did not run (the sampler, on its own thread, is late by a few ms under load
 * while the page still runs; a preempted main thread leaves a gap of tens of ms).
 */

/** The parts of a Chromium CPU profile this reads. */
export interface CpuProfile {
  nodes: Array<{ id: number; callFrame: { functionName: string; url: string; lineNumber: number }; children?: number[] }>
  startTime: number
  samples: number[]
  timeDeltas: number[]
}

/** One long task, with its running time and what ran most. */
export interface AttributedTask {
  duration: number
  start: number
  /** ms the main thread was sampled running inside the task. */
  ran: number
  /** The function with the most self time in it, and the garbage collector's share. */
  top: string
  gc: number
}

/** A gap between samples longer than this (µs) is time the main thread waited for a CPU. */
const PREEMPTED_US = 10_000

/** The page function whose samples align the profile's clock with the page's (see {@link profileMarkScript}). */
export const PROFILE_MARK = 'sousProfileMark'

let marks = 0

/**
 * A page script that runs {@link PROFILE_MARK} for a few ms and returns when (performance.now()) it
 * began. Its source differs each time: a script V8 has seen before comes from its cache, and its
 * function then no longer shows under its name in a new profile.
 */
export function profileMarkScript(): string {
  return `(function ${PROFILE_MARK}() { const t = performance.now(); while (performance.now() - t < 20) {} return t })() // ${++marks}`
}

/**
 * Attributes each long task (start in ms after `t0`, the page's watch start) from the profile,
 * aligned by the mark's first sample, which ran at page time `markAt`.
 */
export function attributeLongTasks(profile: CpuProfile, tasks: ReadonlyArray<{ duration: number; start: number }>, t0: number, markAt: number, intervalUs: number): AttributedTask[] {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]))
  const times: number[] = []
  let t = profile.startTime
  for (const delta of profile.timeDeltas) times.push((t += delta))
  const markNode = new Set(profile.nodes.filter((node) => node.callFrame.functionName === PROFILE_MARK).map((node) => node.id))
  const markSample = profile.samples.findIndex((id) => markNode.has(id))
  if (markSample < 0) return tasks.map((task) => ({ ...task, ran: Number.NaN, top: 'no profile mark', gc: 0 }))
  // Profile µs of page time 0 (performance.now() = 0).
  const origin = times[markSample]! - markAt * 1000
  const idle = (id: number) => ['(idle)', '(program)'].includes(byId.get(id)!.callFrame.functionName)
  return tasks.map((task) => {
    const from = origin + (t0 + task.start) * 1000
    const to = from + task.duration * 1000
    let ran = 0
    let gc = 0
    const self = new Map<string, number>()
    for (let index = 0; index + 1 < times.length; index++) {
      if (times[index]! < from || times[index]! >= to) continue
      const id = profile.samples[index]!
      const delta = times[index + 1]! - times[index]!
      // A long gap: the thread was not running (preempted), not working.
      if (idle(id) || delta > Math.max(PREEMPTED_US, 4 * intervalUs)) continue
      ran += delta / 1000
      const frame = byId.get(id)!.callFrame
      if (frame.functionName === '(garbage collector)') gc += delta / 1000
      const name = `${frame.functionName || '(anonymous)'} ${frame.url.split('/').pop() ?? ''}:${frame.lineNumber + 1}`
      self.set(name, (self.get(name) ?? 0) + delta / 1000)
    }
    const top = [...self].sort((a, b) => b[1] - a[1])[0]
    return { ...task, ran, gc, top: top ? `${top[0]} (${top[1].toFixed(0)} ms)` : 'nothing sampled' }
  })
}
