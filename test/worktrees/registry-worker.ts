/**
 * One Sous process of the worktree-registry race (registry-race.test.ts): it waits for the `go`
 * file, then either makes `count` worktrees or claims one worktree for a session, through the real
 * WorktreeService, and prints one JSON line saying what it got.
 * Usage: node --import tsx registry-worker.ts create <repo> <home> <go> <prefix> <count>
 *        node --import tsx registry-worker.ts claim <repo> <home> <go> <path> <sessionId>
 */
import { existsSync } from 'node:fs'
import { setTimeout as sleep } from 'node:timers/promises'
import { WorktreeService } from '../../src/main/worktrees/service'

const [mode, repo, home, go, a, b] = process.argv.slice(2) as [string, string, string, string, string, string]
const service = new WorktreeService({ home })
// Warm up (git checked, modules loaded) before the start, so the processes really overlap.
await service.availability(repo)
console.log('ready')
while (!existsSync(go)) await sleep(1)

if (mode === 'create') {
  const made: string[] = []
  const failed: string[] = []
  for (let index = 0; index < Number(b); index++) {
    try {
      made.push((await service.create(repo, { name: `${a}-${index}`, owner: 'session', sessionId: `${a}-s${index}` })).info.path)
    } catch (error) {
      failed.push((error as Error).message)
    }
  }
  console.log(JSON.stringify({ made, failed }))
} else {
  const record = (await service.registry.list(repo)).find((item) => item.path === a)
  if (!record) throw new Error(`no record of ${a}`)
  try {
    await service.claim(record, b)
    console.log(JSON.stringify({ claimed: true }))
  } catch (error) {
    console.log(JSON.stringify({ claimed: false, error: (error as Error).message }))
  }
}
