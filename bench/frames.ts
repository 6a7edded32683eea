import type { CDPSession, Page } from '@playwright/test'
import { writeFile } from 'node:fs/promises'
import { startTaskTrace, type TracedTask } from './task-trace'
import { attributeLongTasks, profileMarkScript, type AttributedTask, type CpuProfile } from './long-tasks'

/** What a page did while it was watched: frame times (rAF deltas) and long tasks. */
export interface FrameFigures {
  /** Time between consecutive animation frames, in ms. */
  frames: number[]
  /** Long tasks (over 50 ms, as Chromium reports them): duration and start, ms after the watch began. */
  longTasks: Array<{ duration: number; start: number }>
  /** The page's performance.now() when the watch began. */
  t0: number
}

/** The renderer main thread's CPU time and where it went so far, in seconds. */
export interface MainThread {
  thread: number
  script: number
  layout: number
}

/**
 * Starts recording frame times (a requestAnimationFrame loop) and long tasks (a
 * PerformanceObserver) in the page; {@link stopWatching} returns them.
 */
export async function startWatching(page: Page): Promise<void> {
  // Page scripts as strings: tsx would wrap functions with helpers the page does not have.
  await page.evaluate(`(() => {
    window.frames_ = []
    window.longTasks_ = []
    window.stopFrames_ = false
    let last = performance.now()
    window.t0_ = last
    const tick = (t) => {
      window.frames_.push(t - last)
      last = t
      if (!window.stopFrames_) requestAnimationFrame(tick)
    }
    requestAnimationFrame(tick)
    window.observer_?.disconnect()
    window.observer_ = new PerformanceObserver((list) => list.getEntries().forEach((e) => window.longTasks_.push(e.duration, e.startTime - window.t0_)))
    window.observer_.observe({ type: 'longtask' })
  })()`)
}

/** Stops what {@link startWatching} started and returns its figures (the first, partial frame left out). */
export async function stopWatching(page: Page): Promise<FrameFigures> {
  const { frames, longTasks, t0 } = (await page.evaluate(`(() => {
    window.stopFrames_ = true
    window.observer_?.disconnect()
    return { frames: window.frames_.slice(1), longTasks: window.longTasks_, t0: window.t0_ }
  })()`)) as { frames: number[]; longTasks: number[]; t0: number }
  // longTasks holds pairs: duration, start.
  const pairs: FrameFigures['longTasks'] = []
  for (let index = 0; index + 1 < longTasks.length; index += 2) pairs.push({ duration: longTasks[index]!, start: longTasks[index + 1]! })
  return { frames, longTasks: pairs, t0 }
}

/** The renderer main thread's CPU time so far (Chromium's Performance metrics; `Performance.enable` first). */
export async function mainThread(cdp: CDPSession): Promise<MainThread> {
  const { metrics } = (await cdp.send('Performance.getMetrics')) as { metrics: Array<{ name: string; value: number }> }
  const value = (name: string) => metrics.find((metric) => metric.name === name)?.value ?? Number.NaN
  return { thread: value('ThreadTime'), script: value('ScriptDuration'), layout: value('LayoutDuration') + value('RecalcStyleDuration') }
}

/** The value at quantile `q` (0–1) of `values`; undefined when there are none. */
export function quantile(values: readonly number[], q: number): number | undefined {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))]
}

/** `12.3 ms`, or `n/a`. */
export const ms = (value: number | undefined): string => (value === undefined ? 'n/a' : `${value.toFixed(1)} ms`)

/** What {@link measureRun} saw: the run's result and time, its frames and long tasks, and the renderer main thread's CPU. */
export interface RunFigures<T> extends FrameFigures {
  result: T
  seconds: number
  /** CPU seconds of the renderer main thread during the run (all of it, script, style and layout). */
  cpu: MainThread
  /** With `attribute`: each long task with how much of it the main thread ran (see long-tasks.ts). */
  attributed?: AttributedTask[]
  /** With `attribute`: the renderer main thread's long tasks from Chromium's trace, wall and thread-CPU time (task-trace.ts). */
  traced?: TracedTask[]
}

/** Sampling interval of the CPU profile, µs. */
const PROFILE_INTERVAL_US = 200

/**
 * Runs `run` while watching the page: frames and long tasks ({@link startWatching}), the main
 * thread's CPU (CDP `Performance`), and, with `profileFile`, the renderer's CPU profile written there.
 */
export async function measureRun<T>(page: Page, run: () => Promise<T>, profileFile?: string, options: { attribute?: boolean } = {}): Promise<RunFigures<T>> {
  const cdp = await page.context().newCDPSession(page)
  await cdp.send('Performance.enable')
  const profiling = profileFile !== undefined || options.attribute === true
  let markAt = 0
  if (profiling) {
    await cdp.send('Profiler.enable')
    await cdp.send('Profiler.setSamplingInterval', { interval: PROFILE_INTERVAL_US })
    await cdp.send('Profiler.start')
    // Aligns the profile's clock with the page's (long-tasks.ts); before the watch, so it is no long task of the run.
    markAt = (await page.evaluate(profileMarkScript())) as number
  }
  const trace = options.attribute ? await startTaskTrace(cdp) : undefined
  await startWatching(page)
  const before = await mainThread(cdp)
  const started = Date.now()
  const result = await run()
  const seconds = (Date.now() - started) / 1000
  const after = await mainThread(cdp)
  const watched = await stopWatching(page)
  const profile = profiling ? ((await cdp.send('Profiler.stop')).profile as CpuProfile) : undefined
  const traced = await trace?.()
  if (profile && profileFile) await writeFile(profileFile, JSON.stringify(profile))
  await cdp.detach()
  const attributed = profile && options.attribute ? attributeLongTasks(profile, watched.longTasks, watched.t0, markAt, PROFILE_INTERVAL_US) : undefined
  return { ...watched, result, seconds, cpu: { thread: after.thread - before.thread, script: after.script - before.script, layout: after.layout - before.layout }, ...(attributed && { attributed }), ...(traced && { traced }) }
}
