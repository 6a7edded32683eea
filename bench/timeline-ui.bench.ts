/**
 * The session timeline in the browser (issue 26's "the timeline's frame time while a session
 * streams: ≤ 17 ms p95, no long task over 50 ms, as the other views"): headless Chromium through
 * `sous serve` and the scripted model server. A first prompt fills the strip (a few hundred calls,
 * plus subagents that each get a lane); a second has the main agent start 4 workers at once, each
 * streaming text and running tools, with the strip on screen and following the newest mark.
 * Measured in the page over that prompt (sent with the strip hidden, as a baseline of what the
 * rest of the window costs on the machine then, then with it shown, then hidden again — each
 * stream makes the conversation longer, so the baseline is taken on both sides): frame times (rAF
 * deltas), long tasks, the renderer main thread's CPU; then the same over a replay of the whole
 * session played at 20×.
 * Needs a build (`npm run bench` builds first). Prints figures; asserts nothing. Frame figures
 * swing with machine load: run it alone. `SOUS_BENCH_PROFILE=<prefix>` also writes the renderer's CPU
 * profile of each part.
 */
import type { Page } from '@playwright/test'
import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { ReplyBlock } from '../test/model-server'
import { promptAndWait, textBlock as text, toolCall as call, withScriptedBrowser, type BenchFolders, type ScriptsByMarker } from './by-marker'
import { measureRun, ms, quantile } from './frames'

const WORKERS = 4
const FILL_CALLS = 240
const FILL_AGENTS = 6
const WORKER_ROUNDS = 6
const FILES = 10

const FILL = 'FILL-STRIP'
const STREAM = 'STREAM-WORKERS'
const WORKER = 'WORKER:'
const HELPER = 'HELPER:'


function scripts(project: string): ScriptsByMarker {
  const file = (index: number) => join(project, 'src', `module-${index % FILES}.ts`)
  const tool = (round: number): ReplyBlock => (round % 2 === 0 ? call('Read', { file_path: file(round) }) : call('Grep', { pattern: 'export', path: join(project, 'src') }))
  const stream = { chunkSize: 4, delayMs: 30 }
  const commentary = (round: number) => `Step ${round}: reading the module and noting how its exports are used, ` + 'checking each branch against the tests, '.repeat(4)
  return {
    [FILL]: [
      // Read-only calls in batches of 40 (they run together), then subagents that each read one file.
      ...Array.from({ length: FILL_CALLS / 40 }, (_, batch) => ({ reply: { content: Array.from({ length: 40 }, (_, index) => (index % 2 ? call('Glob', { pattern: `src/**/*${batch}${index}.ts`, path: project }) : call('Read', { file_path: file(index) }))) } })),
      { reply: { content: Array.from({ length: FILL_AGENTS }, (_, index) => call('Agent', { description: `Helper ${index + 1}`, prompt: `${HELPER} read module ${index}.`, subagent_type: 'Explore' })) } },
      { reply: { content: [text('The strip is filled.')] } },
    ],
    [HELPER]: [{ reply: { content: [call('Read', { file_path: file(0) })] } }, { reply: { content: [text('Read it.')] } }],
    [STREAM]: [{ reply: { content: Array.from({ length: WORKERS }, (_, index) => call('Agent', { description: `Worker ${index + 1}`, prompt: `${WORKER} work on part ${index + 1}.` })) } }, { reply: { content: [text('ALL-WORKERS-DONE')] } }],
    [WORKER]: [
      ...Array.from({ length: WORKER_ROUNDS }, (_, round) => ({ reply: { content: [text(commentary(round)), tool(round)] }, ...stream })),
      { reply: { content: [text(`${commentary(WORKER_ROUNDS)}Done with my part.`)] }, ...stream },
    ],
  }
}

export default async function bench(): Promise<void> {
  const prepare = async ({ home }: BenchFolders) => writeFile(join(home, 'settings.json'), `${JSON.stringify({ sous: { autoMemory: false } })}\n`)
  await withScriptedBrowser({ prefix: 'sous-bench-timeline-', files: FILES, prepare, scripts }, async (page) => {
    await promptAndWait(page, `${FILL}: fill the strip.`, 'The strip is filled.')
    await page.waitForTimeout(1500)
    const streaming = async () => {
      const input = await page.getByRole('region', { name: 'Chat' }).getByRole('textbox', { name: 'Message' }).elementHandle()
      if (!input) throw new Error('no message box')
      await input.fill(`${STREAM}: run the workers.`)
      const replies = await repliesNow(page)
      return async () => {
        await input.press('Enter')
        await untilText(page, 'ALL-WORKERS-DONE', replies)
      }
    }
    // The same stream with the strip hidden first: what the rest of the window costs on this machine now.
    await togglePalette(page)
    await measured(page, 'streaming, strip hidden (baseline)', streaming)
    await togglePalette(page)
    await page.waitForTimeout(1500)
    await measured(page, 'streaming', streaming)
    // Hidden again, after it: each stream adds to the conversation, so a later run draws a longer one.
    await togglePalette(page)
    await page.waitForTimeout(1500)
    await measured(page, 'streaming, strip hidden again (baseline after)', streaming)
    await togglePalette(page)
    await page.waitForTimeout(1500)
    printLongest()
    await page.getByRole('toolbar', { name: 'Replay' }).getByRole('button', { name: 'Replay session' }).click()
    await page.getByRole('combobox', { name: 'Replay speed' }).selectOption('20')
    await measured(page, 'replay at 20×', async () => {
      const play = await page.getByRole('button', { name: 'Play', exact: true }).elementHandle()
      if (!play) throw new Error('no play button')
      return async () => {
        await play.click()
        await untilReplayEnd(page)
      }
    })
  })
}


/** Marks on the strip (counted in the page: a locator's search by role would be work of the bench's own). */
function marks(page: Page): Promise<number> {
  return page.evaluate(`document.querySelectorAll('[role="toolbar"][aria-label="Session timeline"] button').length`) as Promise<number>
}

function lanes(page: Page): Promise<number> {
  return page.evaluate(`document.querySelectorAll('[role="toolbar"][aria-label="Session timeline"] [role="group"]').length`) as Promise<number>
}

/** The palette's "Show or hide the session timeline". */
async function togglePalette(page: Page): Promise<void> {
  await page.keyboard.press('Control+Shift+P')
  const command = page.getByRole('dialog', { name: 'Command palette' }).getByRole('combobox', { name: 'Command' })
  await command.fill('Show or hide the session timeline')
  await command.press('Enter')
}

function repliesNow(page: Page): Promise<number> {
  return page.evaluate(`document.querySelectorAll('[role="log"][aria-label="Conversation"] [aria-label="Assistant"]').length`) as Promise<number>
}

/** Polled in the page on a timer until a reply after the first `after` holds `value`. */
async function untilText(page: Page, value: string, after = 0): Promise<void> {
  await page.evaluate(`new Promise((resolve) => {
    const check = () => {
      const replies = document.querySelectorAll('[role="log"][aria-label="Conversation"] [aria-label="Assistant"]')
      if (replies.length > ${after} && replies[replies.length - 1]?.textContent?.includes(${JSON.stringify(value)})) resolve(undefined)
      else setTimeout(check, 250)
    }
    check()
  })`)
}

async function untilReplayEnd(page: Page): Promise<void> {
  await page.evaluate(`new Promise((resolve) => {
    const check = () => {
      const status = document.querySelector('[role="toolbar"][aria-label="Replay"] [role="status"]')?.textContent ?? ''
      const found = /^Step (\\d+) of (\\d+)$/.exec(status)
      if (found && found[1] === found[2]) resolve(undefined)
      else setTimeout(check, 250)
    }
    check()
  })`)
}

/** Each streaming part's longest long task and the most of one the page itself ran. */
const longestByPart: Array<{ name: string; longest: number; mostRun: number; mostCpu: number }> = []

/** The streaming parts side by side: the strip shown against hidden, before and after. */
function printLongest(): void {
  console.log("timeline in Chromium, longest task while streaming (wall time / the page's own work in it, by the CPU profile / by the trace's thread CPU time):")
  for (const part of longestByPart) console.log(`  ${part.name}: ${ms(part.longest)} / ${ms(part.mostRun)} / ${ms(part.mostCpu)}`)
}

/** Runs what `prepare` returns while watching frames, long tasks and CPU, and prints them. */
async function measured(page: Page, name: string, prepare: () => Promise<() => Promise<void>>): Promise<void> {
  const run = await prepare()
  const before = await marks(page)
  // SOUS_BENCH_PROFILE=<prefix>: the renderer's CPU profile of each part, <prefix>-<part>.cpuprofile, for DevTools.
  const profile = process.env.SOUS_BENCH_PROFILE
  const { frames, longTasks, seconds, cpu, attributed = [], traced = [] } = await measureRun(page, run, profile && `${profile}-${name.replace(/\W+/g, '-')}.cpuprofile`, { attribute: true })
  const p95 = quantile(frames, 0.95)
  const longest = longTasks.length ? Math.max(...longTasks.map((task) => task.duration)) : 0
  const mostRun = attributed.length ? Math.max(...attributed.map((task) => task.ran)) : 0
  const mostCpu = traced.length ? Math.max(...traced.map((task) => task.cpu)) : 0
  longestByPart.push({ name, longest, mostRun, mostCpu })
  console.log(`timeline in Chromium, ${name}: ${await marks(page)} marks on ${await lanes(page)} lanes (${before} before), ${seconds.toFixed(1)} s:`)
  console.log(`  frames ${frames.length}, p95 ${ms(p95)}, max ${ms(frames.length ? Math.max(...frames) : undefined)}; target p95 ≤ 17 ms: ${p95 === undefined ? 'n/a' : `${(p95 / 17).toFixed(2)}× it`}`)
  console.log(`  long tasks ${longTasks.length}, longest ${ms(longest)}; target none over 50 ms: ${(longest / 50).toFixed(2)}× it`)
  // What each was made of: the main thread's own work, or waiting for a CPU the machine's load took.
  for (const task of attributed) console.log(`    ${ms(task.duration)} at ${(task.start / 1000).toFixed(1)} s: ran ${ms(task.ran)} (garbage collection ${ms(task.gc)}), most in ${task.top}`)
  console.log(`  longest run of the page's own work inside a long task: ${ms(mostRun)}; target under 50 ms: ${(mostRun / 50).toFixed(2)}× it`)
  // The same question asked of Chromium's trace: the thread's own CPU clock inside each task over 50 ms (wall).
  console.log(`  trace: ${traced.length} tasks over 50 ms on the main thread${traced.length ? ` (wall / thread CPU: ${traced.map((task) => `${ms(task.wall)} / ${ms(task.cpu)}`).join(', ')})` : ''}; most thread CPU in one: ${ms(mostCpu)}`)
  console.log(`  renderer main thread: ${cpu.thread.toFixed(2)} s CPU (${((100 * cpu.thread) / seconds).toFixed(0)} % of the run), script ${cpu.script.toFixed(2)} s, style and layout ${cpu.layout.toFixed(2)} s`)
}
