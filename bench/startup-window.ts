import { execFileSync } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { mkdir } from 'node:fs/promises'
import { join } from 'node:path'
import type { Browser, CDPSession, Page } from '@playwright/test'
import { launchChromium, openProject, startServe } from './serve'
import { startTaskTrace, type TracedTask } from './task-trace'
import type { ModelServer } from '../test/model-server'

const LOADS = 5
const VIEWPORT = { width: 1440, height: 900 }
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN
const mib = (bytes: number) => `${(bytes / 1048576).toFixed(1)} MiB`

/**
 * `sous serve` in Chromium at 1440×900: {@link LOADS} cold loads of the window (a fresh page each,
 * the browser's cache off), each timed from navigation: first contentful paint (target ≤ 200 ms)
 * and the long tasks of start-up, until a project is open and the page has been idle (the idle
 * preloads, Monaco's among them, count: they are start-up too; target: none over 50 ms). Then the
 * memory of the idle window with that project open: the renderer's RSS and JS heap, and the
 * serving process's RSS (what the desktop app's main process would hold).
 * `SOUS_BENCH_BASELINE=<another build's out/main/cli.js>` serves that build's window too, and its
 * loads alternate with this build's (the other build needs a `node_modules` above it).
 * `SOUS_BENCH_TASK_CPU=1` also traces each load (Chromium's own task trace, bench/task-trace.ts) and
 * prints the main thread's CPU time in each long task and in the costliest task of the load: on a
 * shared machine a task's wall time is mostly the time the OS gave its CPU to others, its CPU time
 * is the page's own work (the trace costs the page a little, so the counts of such a run are not
 * those of a plain one).
 */
export async function windowFigures(server: ModelServer, base: string): Promise<void> {
  const project = join(base, 'project')
  const userHome = join(base, 'user-home')
  await mkdir(project, { recursive: true })
  await mkdir(userHome, { recursive: true })
  const serve = await startServe({ sousHome: join(base, 'sous-home'), userHome, modelUrl: server.url })
  // Another build's window beside this one, load for load (`SOUS_BENCH_BASELINE`: its out/main/cli.js).
  const baselineCli = process.env['SOUS_BENCH_BASELINE']
  const baseline = baselineCli ? await startServe({ sousHome: join(base, 'sous-home-baseline'), userHome, modelUrl: server.url, cli: baselineCli }) : undefined
  try {
    await loads([{ name: 'this build', url: serve.url }, ...(baseline ? [{ name: `baseline (${baselineCli})`, url: baseline.url }] : [])], project)
    await idleWindow(serve.url, project, serve.child.pid)
  } finally {
    serve.child.kill('SIGTERM')
    baseline?.child.kill('SIGTERM')
  }
}

interface LoadFigures {
  fcp: number
  screen: number
  longTasks: number[]
  frames: string[]
  /** With `SOUS_BENCH_TASK_CPU`: the renderer main threads' tasks over 10 ms of wall time, wall and CPU. */
  traced?: TracedTask[]
}

/** The cold loads, interleaved between the builds: first contentful paint, the start screen, long tasks. */
async function loads(builds: ReadonlyArray<{ name: string; url: string }>, project: string): Promise<void> {
  const browser = await launchChromium()
  try {
    const figures = builds.map(() => [] as LoadFigures[])
    for (let load = 0; load < LOADS; load++) {
      for (const [index, build] of builds.entries()) figures[index]!.push(await coldLoad(browser, build.url, project))
    }
    console.log(`sous serve window, Chromium ${VIEWPORT.width}×${VIEWPORT.height}, ${LOADS} cold loads (navigation → project open → idle)${builds.length > 1 ? ', interleaved with the baseline' : ''}`)
    for (const [index, build] of builds.entries()) {
      if (builds.length > 1) console.log(`  ${build.name}:`)
      printLoads(figures[index]!)
    }
  } finally {
    await browser.close()
  }
}

/** One cold load in a fresh page with the cache off, until the project is open and the page idle. */
async function coldLoad(browser: Browser, url: string, project: string): Promise<LoadFigures> {
  const page = await browser.newPage({ viewport: VIEWPORT })
  try {
    const cdp = await page.context().newCDPSession(page)
    await cdp.send('Network.setCacheDisabled', { cacheDisabled: true })
    const trace = process.env['SOUS_BENCH_TASK_CPU'] ? await startTaskTrace(cdp, 10, new URL(url).host) : undefined
    await page.addInitScript(`
      window.__startScreen = undefined
      new MutationObserver((changes, observer) => {
        if (!document.querySelector('.open-project input')) return
        observer.disconnect()
        requestAnimationFrame(() => (window.__startScreen = performance.now()))
      }).observe(document, { childList: true, subtree: true })
      window.__startupLongTasks = []
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries()) window.__startupLongTasks.push(entry.duration)
      }).observe({ type: 'longtask', buffered: true })
      // Long animation frames name the scripts that ran in them (and how: module-script, event-listener…): where each long task came from.
      window.__startupFrames = []
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries()) {
          const scripts = entry.scripts.filter((script) => script.duration > 10).map((script) => (script.sourceURL.split('/').pop() || script.invoker) + '(' + script.invokerType + ') ' + Math.round(script.duration))
          window.__startupFrames.push(Math.round(entry.startTime) + '+' + Math.round(entry.duration) + ' ms: ' + (scripts.join(', ') || 'style/layout/render'))
        }
      }).observe({ type: 'long-animation-frame', buffered: true })
    `)
    await openByKeyboard(cdp, page, url, project)
    await inPage(cdp, `new Promise((done) => setTimeout(() => requestIdleCallback(() => done(true), { timeout: 3000 }), 2500))`)
    const longTasks = (await inPage(cdp, 'window.__startupLongTasks')) as number[]
    const frames = (await inPage(cdp, 'window.__startupFrames')) as string[]
    const fcp = (await inPage(cdp, `performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? -1`)) as number
    const screen = (await inPage(cdp, 'window.__startScreen ?? -1')) as number
    return { fcp, screen, longTasks, frames, ...(trace && { traced: await trace() }) }
  } finally {
    await page.close()
  }
}

/**
 * Opens `project` as a user does with the keyboard (the path field has the focus once the start
 * screen is painted; the path typed, Enter), until the chat is on screen, through the DevTools
 * protocol alone. Not with Playwright's locators: their first use compiles and runs Playwright's
 * injected script in the page (11–13 ms of the main thread's CPU, 50–100 ms of wall time on a
 * loaded machine), and waiting on a role polls the whole document's accessibility names; both were
 * long tasks of every load that were the bench's, not the window's.
 */
async function openByKeyboard(cdp: CDPSession, page: Page, url: string, project: string): Promise<void> {
  await page.goto(url)
  await waitInPage(cdp, `document.activeElement?.matches('.open-project input') === true`)
  await page.keyboard.insertText(project)
  await page.keyboard.press('Enter')
  await waitInPage(cdp, `document.querySelector('section[aria-label="Chat"]') !== null`)
}

/** Evaluates `expression` in the page (awaiting a promise), by value. */
async function inPage(cdp: CDPSession, expression: string): Promise<unknown> {
  const { result, exceptionDetails } = await cdp.send('Runtime.evaluate', { expression, returnByValue: true, awaitPromise: true })
  if (exceptionDetails) throw new Error(`in the page: ${exceptionDetails.exception?.description ?? exceptionDetails.text}`)
  return result.value
}

/** Polls `condition` in the page every 20 ms until it holds (30 s at most). */
async function waitInPage(cdp: CDPSession, condition: string): Promise<void> {
  for (const until = Date.now() + 30_000; Date.now() < until; await new Promise((done) => setTimeout(done, 20))) {
    if ((await inPage(cdp, condition)) === true) return
  }
  throw new Error(`the page never had ${condition}`)
}

/** One build's figures over its loads. */
function printLoads(figures: LoadFigures[]): void {
  const fcps = figures.map((load) => load.fcp)
  const longest = figures.map((load) => Math.max(0, ...load.longTasks))
  console.log(`  first contentful paint: median ${median(fcps).toFixed(0)} ms (${fcps.map((fcp) => fcp.toFixed(0)).join(', ')}); target ≤ 200 ms${median(fcps) <= 200 ? '' : ', OVER'}`)
  const screens = figures.map((load) => load.screen)
  console.log(`  the app's start screen painted (React's first render, the open-project form): median ${median(screens).toFixed(0)} ms (${screens.map((screen) => screen.toFixed(0)).join(', ')}); the first paint before it is index.html's boot shell`)
  const over = figures.map((load) => load.longTasks.filter((task) => task > 50).length)
  console.log(`  long tasks over 50 ms during start: ${over.join(', ')} per load; longest ${longest.map((task) => task.toFixed(0)).join(', ')} ms, median ${median(longest).toFixed(0)} ms (target: none${over.some(Boolean) ? ', OVER' : ''})`)
  const last = figures.at(-1)
  if (last) console.log(`  the last load's long animation frames (start+duration, scripts over 10 ms): ${last.frames.join('; ') || 'none'}`)
  // And the load with the longest task, when that is another: where the worst of the run came from.
  const worst = longest.indexOf(Math.max(...longest))
  if (worst !== figures.length - 1 && longest[worst]! > 0) console.log(`  load ${worst + 1}'s (the longest task's) long animation frames: ${figures[worst]!.frames.join('; ') || 'none'}`)
  // Over every load: each script that ran over 30 ms in a long frame, by chunk (the hash left out,
  // so two builds' lines compare), so one load's frames are not all there is to go by.
  const scripts = new Map<string, number[]>()
  for (const frame of figures.flatMap((load) => load.frames)) {
    for (const [, name, duration] of frame.slice(frame.indexOf(': ') + 2).matchAll(/([^\s,]+) (\d+)/g)) {
      if (Number(duration) <= 30) continue
      const chunk = name!.replace(/-[\w-]{8}\.js\(/, '-*.js(')
      scripts.set(chunk, [...(scripts.get(chunk) ?? []), Number(duration)])
    }
  }
  if (figures.every((load) => load.traced)) printTaskCpu(figures.map((load) => load.traced!))
  console.log(`  scripts over 30 ms in long frames, all loads: ${[...scripts].map(([name, durations]) => `${name} ${durations.join(', ')}`).join('; ') || 'none'}`)
}

/** Per load, from the task trace: each long task's CPU time, and the costliest task's. */
function printTaskCpu(loads: TracedTask[][]): void {
  const cpu = (task: TracedTask) => task.cpu.toFixed(0)
  const long = loads.map((tasks) => tasks.filter((task) => task.wall > 50))
  console.log(`  traced tasks over 50 ms (wall/CPU ms): ${long.map((tasks) => tasks.map((task) => `${task.wall.toFixed(0)}/${cpu(task)}`).join(' ') || 'none').join('; ')}`)
  const costliest = loads.map((tasks) => Math.max(0, ...tasks.map((task) => task.cpu)))
  const named = loads.map((tasks) => tasks.reduce<TracedTask | undefined>((best, task) => (task.cpu > (best?.cpu ?? -1) ? task : best), undefined))
  console.log(`  the costliest task of each load: ${named.map((task) => (task ? `${task.what} ${task.wall.toFixed(0)}/${cpu(task)}` : 'none')).join('; ')}`)
  const heavy = loads.flatMap((tasks) => tasks.filter((task) => task.cpu > 12)).map((task) => `${task.what} ${cpu(task)}`)
  console.log(`  tasks over 12 ms of CPU, all loads: ${heavy.join('; ') || 'none'}`)
  const over = (ms: number) => loads.map((tasks) => tasks.filter((task) => task.cpu > ms).length).join(', ')
  console.log(`  costliest task's CPU per load: ${costliest.map((value) => value.toFixed(0)).join(', ')} ms (median ${median(costliest).toFixed(0)}); tasks over 20 ms of CPU: ${over(20)}; over 30 ms: ${over(30)}`)
}

/** Memory of an idle window with the project open, in a browser of its own (no renderers of earlier loads). */
async function idleWindow(url: string, project: string, servePid: number | undefined): Promise<void> {
  const browser = await launchChromium()
  try {
    const page = await browser.newPage({ viewport: VIEWPORT })
    await openProject(page, url, project)
    await page.evaluate(`new Promise((done) => setTimeout(() => requestIdleCallback(() => done(), { timeout: 3000 }), 2500))`)
    await idleMemory(page, servePid)
  } finally {
    await browser.close()
  }
}

/** The idle window's memory: its renderer process (RSS), the page's JS heap, the server process. */
async function idleMemory(page: Page, servePid: number | undefined): Promise<void> {
  const cdp = await page.context().newCDPSession(page)
  await cdp.send('HeapProfiler.collectGarbage')
  await cdp.send('Performance.enable')
  const { metrics } = (await cdp.send('Performance.getMetrics')) as { metrics: Array<{ name: string; value: number }> }
  const heap = metrics.find((metric) => metric.name === 'JSHeapUsedSize')?.value ?? NaN
  // The page's renderer is the largest; Chromium may keep a spare one, nearly empty, beside it.
  const renderer = Math.max(0, ...rendererPids().map(rssOf))
  console.log(`  idle window, one project open: renderer RSS ${mib(renderer)}, JS heap used ${mib(heap)}; sous serve process RSS ${servePid ? mib(rssOf(servePid)) : 'n/a'} (what the desktop app's main process would hold)`)
}

/** Chromium's renderer processes: `--type=renderer` descendants of the browser this process launched. */
function rendererPids(): number[] {
  const list = execFileSync('ps', ['-eo', 'pid=,ppid=,args='], { encoding: 'utf8' }).split('\n')
  const all = list.map((line) => /^\s*(\d+)\s+(\d+)\s+(.*)$/.exec(line)).filter((match) => match !== null)
  const browserPid = Number(all.find((match) => Number(match[2]) === process.pid && match[3]!.includes('chromium') && !match[3]!.includes('--type='))?.[1])
  return all.filter((match) => match[3]!.includes('--type=renderer') && isDescendant(Number(match[1]), browserPid, all)).map((match) => Number(match[1]))
}

function isDescendant(pid: number, ancestor: number, all: RegExpExecArray[]): boolean {
  for (let current = pid, hops = 0; hops < 10; hops++) {
    const parent = Number(all.find((match) => Number(match[1]) === current)?.[2])
    if (!parent) return false
    if (parent === ancestor) return true
    current = parent
  }
  return false
}

function rssOf(pid: number): number {
  const status = `/proc/${pid}/status`
  if (!existsSync(status)) return 0
  const kB = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(status, 'utf8'))?.[1] ?? 0)
  return kB * 1024
}
