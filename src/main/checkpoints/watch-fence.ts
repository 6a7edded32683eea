import { watch, type FSWatcher } from 'node:fs'
import { mkdir, mkdtemp, rm, unlink, writeFile } from 'node:fs/promises'

/** How long a fence waits for its own event before the take is called unknown. */
const FENCE_WAIT_MS = 2_000

/**
 * The barrier that makes a watcher's take complete: a file written in a folder of Sous's own,
 * watched through the same inotify instance as the tree (libuv keeps one per thread for every
 * `fs.watch`). The kernel queues that instance's events in the order the system calls made them,
 * and libuv hands them to us in that order, so when the fence file's event arrives, the event of
 * every change made before the fence was written has arrived too — including changes by other
 * processes, and changes whose events were still unread when the take began.
 */
export class Fence {
  private count = 0
  private waiting: { name: string; resolve(seen: boolean): void } | undefined

  private constructor(
    private readonly folder: string,
    private readonly handle: FSWatcher,
  ) {}

  /** A fence in a new folder under `parent`; a reason when it cannot be made. */
  static async open(parent: string): Promise<Fence | { reason: string }> {
    try {
      await mkdir(parent, { recursive: true, mode: 0o700 })
      const folder = await mkdtemp(`${parent}/fence-`)
      let fence: Fence | undefined = undefined
      const handle = watch(folder, { persistent: false }, (_type, name) => fence?.seen(name))
      fence = new Fence(folder, handle)
      handle.on('error', () => fence?.waiting?.resolve(false))
      return fence
    } catch (error) {
      return { reason: `the file watcher's fence could not be made (${error instanceof Error ? error.message : String(error)})` }
    }
  }

  /** Resolves true once every event queued before this call has been delivered; false when the fence's event did not come. */
  async pass(): Promise<boolean> {
    // A new name each time: a late event of an earlier fence cannot pass for this one's.
    const name = `fence-${++this.count}`
    const seen = new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => resolve(false), FENCE_WAIT_MS)
      this.waiting = {
        name,
        resolve: (value) => {
          clearTimeout(timer)
          this.waiting = undefined
          resolve(value)
        },
      }
    })
    const path = `${this.folder}/${name}`
    const written = await writeFile(path, '', { flag: 'wx', mode: 0o600 }).then(() => true, () => false)
    if (!written) this.waiting?.resolve(false)
    const passed = await seen
    await unlink(path).catch(() => undefined)
    return passed
  }

  private seen(name: string | null): void {
    if (this.waiting && name === this.waiting.name) this.waiting.resolve(true)
  }

  /** Stops the fence's watch and removes its folder. */
  async close(): Promise<void> {
    this.handle.close()
    this.waiting?.resolve(false)
    await rm(this.folder, { recursive: true, force: true })
  }
}
