/**
 * Start-up cost of keeping the model key out of /proc/<pid>/environ (src/main/base/own-credentials.ts):
 * sealing in a fresh process (the copy of the environment, the delete and the /proc/self/mem
 * scrub, cold as at start-up) against what a re-exec would add (a second bare `node -e 0`). Each
 * sample is a fresh Node process, since only the first call in a process is what start-up pays.
 * Prints figures and the ratio; asserts nothing.
 */
import { execFileSync } from 'node:child_process'
import { join } from 'node:path'

const MODULE = join(import.meta.dirname, '..', 'src', 'main', 'base', 'own-credentials.ts')
const SAMPLES = 9
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN

export default async function bench(): Promise<void> {
  const env = { PATH: process.env.PATH, HOME: process.env.HOME, ANTHROPIC_API_KEY: 'sk-ant-bench' }
  const seal: number[] = []
  const reexec: number[] = []
  for (let sample = 0; sample < SAMPLES; sample++) {
    const body = `const { sealOwnCredentials } = await import(${JSON.stringify(MODULE)}); const t = performance.now(); sealOwnCredentials(); console.log(performance.now() - t)`
    seal.push(Number(execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', body], { env, encoding: 'utf8' })))
    const start = performance.now()
    execFileSync(process.execPath, ['-e', '0'], { env })
    reexec.push(performance.now() - start)
  }
  const [sealed, again] = [median(seal), median(reexec)]
  console.log(`seal the credentials at start (median of ${SAMPLES} fresh processes): ${sealed.toFixed(2)} ms`)
  console.log(`what a re-exec would add (a bare \`node -e 0\`, median of ${SAMPLES}): ${again.toFixed(1)} ms`)
  console.log(`ratio re-exec / seal: ${(again / sealed).toFixed(0)}×`)
}
