import { writeFileSync } from 'node:fs'

/**
 * Start-up marks for `npm run bench` (bench/startup.bench.ts): ms since the process started
 * (`performance.now()`), at the points that split the way to the first request: modules loaded,
 * settings read, gate ready, system prompt assembled, request handed to the SDK, request on the
 * wire. Off unless `SOUS_STARTUP_MARKS` names a file, which gets them as JSON when the process
 * exits; costs one environment lookup per mark otherwise. Each mark is kept the first time only.
 */
export function startupMark(name: StartupMark): void {
  const file = process.env['SOUS_STARTUP_MARKS']
  if (!file || name in marks) return
  marks[name] = performance.now()
  if (!listening) {
    listening = true
    process.once('exit', () => writeFileSync(file, JSON.stringify(marks)))
  }
}

/** The points {@link startupMark} records, in the order a cold `sous -p` reaches them. */
export type StartupMark = 'modules' | 'settings' | 'gate' | 'prompt' | 'sdk' | 'wire'

const marks: Partial<Record<StartupMark, number>> = {}
let listening = false
