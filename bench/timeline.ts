/**
 * Where a renderer main thread's CPU went, by Chromium's own trace events (CDP `Tracing`, the
 * devtools timeline category): thread-CPU ms (`tdur`) summed per event name, for the names that
 * say what the time was (script, style, layout, paint, garbage collection). Events nest (a script
 * can force a layout), so the names do not add up to the thread's total.
 */
import type { CDPSession } from '@playwright/test'
import type { TraceEvent } from './task-trace'

/** The trace event names summed, in the order printed. */
const NAMES = ['RunTask', 'FunctionCall', 'TimerFire', 'FireAnimationFrame', 'EventDispatch', 'UpdateLayoutTree', 'Layout', 'PrePaint', 'Paint', 'Layerize', 'Commit', 'MinorGC', 'MajorGC', 'V8.GC_SCAVENGER', 'V8.GC_MC_BACKGROUND_MARKING']

/**
 * Starts tracing; the returned function stops and returns thread-CPU ms per event name, with each
 * name's count. With `selfTimes`, it also prints the 30 event names with the most self time
 * (children subtracted, nesting read from the timestamps), every name the trace holds.
 */
export async function startTimeline(cdp: CDPSession, selfTimes = false): Promise<() => Promise<Map<string, { ms: number; count: number }>>> {
  const events: TraceEvent[] = []
  cdp.on('Tracing.dataCollected', (data) => void events.push(...(data.value as unknown as TraceEvent[])))
  await cdp.send('Tracing.start', { transferMode: 'ReportEvents', traceConfig: { includedCategories: ['toplevel', 'devtools.timeline', 'disabled-by-default-devtools.timeline', 'v8', '__metadata'], recordMode: 'recordContinuously' } })
  return async () => {
    const done = new Promise<void>((resolve) => cdp.once('Tracing.tracingComplete', () => resolve()))
    await cdp.send('Tracing.end')
    await done
    const main = new Set(events.filter((event) => event.ph === 'M' && event.name === 'thread_name' && event.args?.name === 'CrRendererMain').map((event) => `${event.pid}:${event.tid}`))
    const totals = new Map<string, { ms: number; count: number }>()
    for (const name of NAMES) totals.set(name, { ms: 0, count: 0 })
    for (const event of events) {
      const total = totals.get(event.name)
      if (!total || event.ph !== 'X' || !main.has(`${event.pid}:${event.tid}`)) continue
      total.ms += (event.tdur ?? 0) / 1000
      total.count++
    }
    for (const [name, total] of totals) if (total.count === 0) totals.delete(name)
    if (selfTimes) {
      // Self thread time per event name (children subtracted), nesting by timestamps.
      const mine = events.filter((event) => event.ph === 'X' && main.has(`${event.pid}:${event.tid}`)).sort((a, b) => a.ts - b.ts || (b.dur ?? 0) - (a.dur ?? 0))
      const self = new Map<string, number>()
      const stack: Array<{ end: number; name: string }> = []
      for (const event of mine) {
        while (stack.length && stack[stack.length - 1]!.end <= event.ts) stack.pop()
        const cpu = (event.tdur ?? 0) / 1000
        self.set(event.name, (self.get(event.name) ?? 0) + cpu)
        const parent = stack.at(-1)
        if (parent) self.set(parent.name, (self.get(parent.name) ?? 0) - cpu)
        stack.push({ end: event.ts + (event.dur ?? 0), name: event.name })
      }
      console.log(`  self thread-CPU ms by trace event: ${[...self].sort((a, b) => b[1] - a[1]).slice(0, 30).map(([name, ms]) => `${name} ${ms.toFixed(0)}`).join('; ')}`)
    }
    return totals
  }
}
