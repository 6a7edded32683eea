/**
 * The renderer main thread's long tasks as Chromium's own trace records them (CDP `Tracing`):
 * each task's wall time (`dur`) beside the CPU time the thread spent in it (`tdur`, the thread's
 * clock). A task the OS preempted has a long `dur` and a short `tdur`; one that is the page's own
 * work has both long. This is a second, independent measure beside the CPU profile's sample gaps
 * (long-tasks.ts), whose sampler thread can itself be starved under load.
 */
import type { CDPSession } from '@playwright/test'

/** One long task of a renderer main thread: wall and thread-CPU ms, and what ran in it. */
export interface TracedTask {
  wall: number
  cpu: number
  /** The longest event inside the task and the script (chunk, hash left out) of the longest one that names one: `TimerFire App-*.js`. */
  what: string
}

/** One event of Chromium's trace, as CDP's `Tracing.dataCollected` carries it (the fields these benches read). */
export interface TraceEvent {
  name: string
  ph: string
  pid: number
  tid: number
  ts: number
  dur?: number
  tdur?: number
  args?: { name?: string; data?: { url?: string } }
}

/** What ran in `task`, from the events nested in it on its thread (`sorted` by start). */
function describe(task: TraceEvent, sorted: readonly TraceEvent[]): string {
  const end = task.ts + (task.dur ?? 0)
  const inside = sorted.filter((event) => event !== task && event.ts >= task.ts && event.ts + (event.dur ?? 0) <= end && !event.name.includes('RunTask'))
  const longest = (events: TraceEvent[]) => events.reduce<TraceEvent | undefined>((best, event) => ((event.dur ?? 0) > (best?.dur ?? -1) ? event : best), undefined)
  const script = longest(inside.filter((event) => event.args?.data?.url))
  const file = script?.args?.data?.url?.split('/').pop()?.replace(/-[\w-]{8}\.js$/, '-*.js')
  return [longest(inside)?.name ?? 'nothing traced', file].filter(Boolean).join(' ')
}

/**
 * Starts tracing the tasks of every thread; the function it resolves with stops the trace and
 * returns the renderer main threads' tasks longer than `minWallMs` (wall time; 50 unless told).
 * With `urlPart`, only the main threads that loaded a URL containing it (Chromium runs renderers
 * of its own beside the page's, such as its UI's, whose tasks are none of the page's).
 */
export async function startTaskTrace(cdp: CDPSession, minWallMs = 50, urlPart?: string): Promise<() => Promise<TracedTask[]>> {
  const events: TraceEvent[] = []
  cdp.on('Tracing.dataCollected', (data) => void events.push(...(data.value as unknown as TraceEvent[])))
  await cdp.send('Tracing.start', { transferMode: 'ReportEvents', traceConfig: { includedCategories: ['toplevel', 'devtools.timeline', 'disabled-by-default-devtools.timeline', '__metadata'], recordMode: 'recordContinuously' } })
  return async () => {
    const done = new Promise<void>((resolve) => cdp.once('Tracing.tracingComplete', () => resolve()))
    await cdp.send('Tracing.end')
    await done
    let main = new Set(events.filter((event) => event.ph === 'M' && event.name === 'thread_name' && event.args?.name === 'CrRendererMain').map((event) => `${event.pid}:${event.tid}`))
    if (urlPart !== undefined) main = new Set(events.filter((event) => main.has(`${event.pid}:${event.tid}`) && event.args?.data?.url?.includes(urlPart)).map((event) => `${event.pid}:${event.tid}`))
    const onMain = events.filter((event) => event.ph === 'X' && main.has(`${event.pid}:${event.tid}`)).sort((a, b) => a.ts - b.ts)
    const tasks = (name: string) => onMain.filter((event) => event.name === name)
    // One name only: the two nest (one task, not two), and which one a build emits varies.
    const top = tasks('ThreadControllerImpl::RunTask')
    return (top.length ? top : tasks('RunTask'))
      .filter((event) => (event.dur ?? 0) > minWallMs * 1000)
      .map((event) => ({ wall: (event.dur ?? 0) / 1000, cpu: (event.tdur ?? Number.NaN) / 1000, what: describe(event, onMain.filter((other) => other.pid === event.pid && other.tid === event.tid)) }))
  }
}
