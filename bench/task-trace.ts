/**
 * The renderer main thread's long tasks as Chromium's own trace records them (CDP `Tracing`):
 * each task's wall time (`dur`) beside the CPU time the thread spent in it (`tdur`, the thread's
 * clock). A task the OS preempted has a long `dur` and a short `tdur`; one that is the page's own
 * work has both long. This is a second, independent measure beside the CPU profile's sample gaps
 * (long-tasks.ts), whose sampler thread can itself be starved under load.
 */
import type { CDPSession } from '@playwright/test'

/** One long task of a renderer main thread: wall and thread-CPU ms. */
export interface TracedTask {
  wall: number
  cpu: number
}

interface TraceEvent {
  name: string
  ph: string
  pid: number
  tid: number
  dur?: number
  tdur?: number
  args?: { name?: string }
}

/** Starts tracing the tasks of every thread; {@link stopTaskTrace} returns the renderer main threads' long ones. */
export async function startTaskTrace(cdp: CDPSession): Promise<() => Promise<TracedTask[]>> {
  const events: TraceEvent[] = []
  cdp.on('Tracing.dataCollected', (data) => void events.push(...(data.value as unknown as TraceEvent[])))
  await cdp.send('Tracing.start', { transferMode: 'ReportEvents', traceConfig: { includedCategories: ['toplevel', 'disabled-by-default-devtools.timeline', '__metadata'], recordMode: 'recordContinuously' } })
  return async () => {
    const done = new Promise<void>((resolve) => cdp.once('Tracing.tracingComplete', () => resolve()))
    await cdp.send('Tracing.end')
    await done
    const main = new Set(events.filter((event) => event.ph === 'M' && event.name === 'thread_name' && event.args?.name === 'CrRendererMain').map((event) => `${event.pid}:${event.tid}`))
    const tasks = (name: string) => events.filter((event) => event.ph === 'X' && event.name === name && main.has(`${event.pid}:${event.tid}`))
    // One name only: the two nest (one task, not two), and which one a build emits varies.
    const top = tasks('ThreadControllerImpl::RunTask')
    return (top.length ? top : tasks('RunTask'))
      .filter((event) => (event.dur ?? 0) > 50_000)
      .map((event) => ({ wall: (event.dur ?? 0) / 1000, cpu: (event.tdur ?? Number.NaN) / 1000 }))
  }
}
