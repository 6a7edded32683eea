/**
 * The agent tree in the browser (issue 15's "8 subagents streaming at once with a 200-node tree:
 * frame p95 ≤ 17 ms in Chromium, no long task over 50 ms"): headless Chromium through `sous serve`
 * and the scripted model server. A first prompt fills the tree — task-list items, background
 * commands, finished agents, and agents nested under agents — then a second has the main agent
 * start 8 workers at once, each streaming text and running tools for about 10 s, with the Agents
 * panel open. Measured in the page over that second prompt: frame times (rAF deltas), long tasks,
 * and the renderer main thread's CPU time. Needs a build (`npm run bench` builds first). Prints
 * figures; asserts nothing. Frame figures swing with machine load: run it alone.
 * `SOUS_BENCH_PROFILE=<file.cpuprofile>` also writes the renderer's CPU profile of the run.
 */
import type { Page } from '@playwright/test'
import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { ReplyBlock } from '../test/model-server'
import { promptAndWait, textBlock as text, toolCall as call, withScriptedBrowser, type BenchFolders, type ScriptsByMarker } from './by-marker'
import { measureRun, ms, quantile } from './frames'

const WORKERS = 8
const TASKS = 80
const SHELLS = 6
const FINISHED = 50
const LEADS = 10
const EXPLORES_PER_LEAD = 4
/** Rounds of streamed text plus one tool call each, then the final text. */
const WORKER_ROUNDS = 5
const FILES = 10

// Each conversation is told apart by a marker in the user text that started it (see by-marker.ts).
const SETUP = 'SETUP-TREE'
const STREAM = 'STREAM-EIGHT'
const WORKER = 'WORKER:'
const LEAD = 'LEAD:'
const FINISH = 'FINISH:'

const agentCall = (description: string, prompt: string, subagentType = 'general-purpose'): ReplyBlock => call('Agent', { description, prompt, subagent_type: subagentType })

/** About 300 characters of a worker's running commentary. */
function commentary(round: number): string {
  return `Step ${round}: reading the module and noting how its exports are used by the callers, ` + 'checking each branch of the parser against the tests, '.repeat(4)
}

/** The replies of each conversation, by its marker; the n-th assistant turn gets the n-th. */
function scripts(project: string): ScriptsByMarker {
  const file = (index: number) => join(project, 'src', `module-${index % FILES}.ts`)
  const tool = (round: number): ReplyBlock =>
    round === 0
      ? call('Bash', { command: 'sleep 600', description: 'Keep a watcher running', run_in_background: true })
      : round % 3 === 1
        ? call('Read', { file_path: file(round) })
        : round % 3 === 2
          ? call('Grep', { pattern: 'export', path: join(project, 'src') })
          : call('Glob', { pattern: 'src/**/*.ts', path: project })
  const stream = { chunkSize: 4, delayMs: 30 }
  return {
    [SETUP]: [
      {
        reply: {
          content: [
            ...Array.from({ length: TASKS }, (_, index) => call('TaskCreate', { subject: `Check part ${index + 1} of the parser`, description: `Part ${index + 1}`, activeForm: `Checking part ${index + 1}` })),
            ...Array.from({ length: SHELLS }, (_, index) => call('Bash', { command: `sleep ${600 + index}`, description: `Watcher ${index + 1}`, run_in_background: true })),
          ],
        },
      },
      {
        reply: {
          content: [
            ...Array.from({ length: FINISHED }, (_, index) => agentCall(`Survey area ${index + 1}`, `${FINISH} survey area ${index + 1}.`, 'Explore')),
            ...Array.from({ length: LEADS }, (_, index) => agentCall(`Lead review ${index + 1}`, `${LEAD} review part ${index + 1}.`, 'lead')),
          ],
        },
      },
      { reply: { content: [text('The tree is set up.')] } },
    ],
    [LEAD]: [{ reply: { content: Array.from({ length: EXPLORES_PER_LEAD }, (_, index) => agentCall(`Gather fact ${index + 1}`, `${FINISH} gather fact ${index + 1}.`, 'Explore')) } }, { reply: { content: [text('Reviewed: nothing wrong.')] } }],
    [FINISH]: [{ reply: { content: [text('Finished: nothing to report.')] } }],
    [STREAM]: [{ reply: { content: Array.from({ length: WORKERS }, (_, index) => agentCall(`Worker ${index + 1}`, `${WORKER} work on part ${index + 1}.`)) } }, { reply: { content: [text('ALL-WORKERS-DONE')] } }],
    [WORKER]: [
      ...Array.from({ length: WORKER_ROUNDS }, (_, round) => ({ reply: { content: [text(commentary(round)), tool(round)] }, ...stream })),
      { reply: { content: [text(`${commentary(WORKER_ROUNDS)}Done with my part.`)] }, ...stream },
    ],
  }
}

export default async function bench(): Promise<void> {
  // The user's own settings and agent (trusted without asking): background watchers may run, a lead
  // agent may start agents of its own, and memory's side requests stay out of the script.
  const prepare = async ({ home, userHome }: BenchFolders) => {
    await mkdir(join(userHome, '.claude', 'agents'), { recursive: true })
    await writeFile(join(home, 'settings.json'), `${JSON.stringify({ permissions: { allow: ['Bash(sleep:*)'] }, sous: { autoMemory: false } })}\n`)
    await writeFile(join(userHome, '.claude', 'agents', 'lead.md'), '---\nname: lead\ndescription: Leads a review and sends Explore agents for facts\ntools: Read, Grep, Agent\n---\nYou lead a review.\n')
  }
  await withScriptedBrowser({ prefix: 'sous-bench-agents-ui-', files: FILES, prepare, scripts }, async (page) => {
    await promptAndWait(page, `${SETUP}: set up the work.`, 'The tree is set up.')
    await page.waitForTimeout(2000)
    await streamingTree(page)
  })
}


/** Rows in the tree (treeitems in the DOM). */
async function treeRows(page: Page): Promise<number> {
  return (await page.evaluate(`document.querySelectorAll('[role="tree"][aria-label="Agent tree"] [role="treeitem"]').length`)) as number
}

/**
 * Resolves once the main agent went from running back to idle, with the most tree rows seen
 * running at once (a check that the agents overlap). Polled inside the page on a timer: Playwright's
 * locators poll by role over the whole DOM, which would be most of what the bench measures.
 */
async function untilIdle(page: Page): Promise<number> {
  return (await page.evaluate(`new Promise((resolve) => {
    let running = false
    let most = 0
    const check = () => {
      const items = [...document.querySelectorAll('[role="tree"][aria-label="Agent tree"] [role="treeitem"]')]
      const label = (item) => item.getAttribute('aria-label') ?? ''
      most = Math.max(most, items.filter((item) => label(item).endsWith(' — Running')).length)
      const main = label(items.find((item) => item.getAttribute('data-node-id') === 'main') ?? document.body)
      if (main.endsWith(' — Running')) running = true
      if (running && main.endsWith(' — Idle')) resolve(most)
      else setTimeout(check, 250)
    }
    check()
  })`, undefined)) as number
}

async function streamingTree(page: Page): Promise<void> {
  await page.getByRole('tree', { name: 'Agent tree' }).waitFor()
  const before = await treeRows(page)
  // Found and filled before the watch: a locator's search by role is work of the bench's own.
  const input = await page.getByRole('region', { name: 'Chat' }).getByRole('textbox', { name: 'Message' }).elementHandle()
  if (!input) throw new Error('no message box')
  await input.fill(`${STREAM}: run the eight workers.`)
  // SOUS_BENCH_PROFILE=<file.cpuprofile>: the renderer's CPU profile over the run, for DevTools.
  const run = async () => {
    await input.press('Enter')
    return untilIdle(page)
  }
  const { result: most, seconds, frames, longTasks, cpu } = await measureRun(page, run, process.env.SOUS_BENCH_PROFILE)
  const after = await treeRows(page)
  const p95 = quantile(frames, 0.95)
  const max = frames.length ? Math.max(...frames) : undefined
  const longest = longTasks.length ? Math.max(...longTasks.map((task) => task.duration)) : 0
  console.log(`tree in Chromium, ${WORKERS} agents streaming into a ${after}-node tree (${before} before; at most ${most} rows running at once), ${seconds.toFixed(1)} s:`)
  console.log(`  frames ${frames.length}, p95 ${ms(p95)}, max ${ms(max)}; target p95 ≤ 17 ms: ${p95 === undefined ? 'n/a' : `${(p95 / 17).toFixed(2)}× it`}`)
  console.log(`  long tasks ${longTasks.length}, longest ${ms(longest)}${longTasks.length ? ` (at ${longTasks.map((task) => `${(task.start / 1000).toFixed(1)}s`).join(', ')})` : ''}; target none over 50 ms: ${(longest / 50).toFixed(2)}× it`)
  console.log(`  renderer main thread: ${cpu.thread.toFixed(2)} s CPU (${((100 * cpu.thread) / seconds).toFixed(0)} % of the run), script ${cpu.script.toFixed(2)} s, style and layout ${cpu.layout.toFixed(2)} s`)
}
