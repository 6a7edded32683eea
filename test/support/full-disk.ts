import { execFileSync } from 'node:child_process'
import { closeSync, mkdirSync, mkdtempSync, openSync, rmSync, rmdirSync, writeSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach } from 'vitest'

/**
 * A small real filesystem (a tmpfs) for tests of what happens when the disk is full: writes there
 * fail with the kernel's own ENOSPC, torn mid-write as a real full disk tears them. Mounting needs
 * root (or CAP_SYS_ADMIN); where it is refused, {@link smallDiskRefusal} says why and the tests skip.
 */
export interface SmallDisk {
  /** The mount point. */
  readonly root: string
  /** Fills the disk to the last byte; returns the filler's path (remove it to free the space). */
  fill(): string
  /** Frees what {@link fill} took. */
  free(): void
  /** Unmounts and removes the mount point. */
  dispose(): void
}

/** Why a small tmpfs cannot be mounted here (undefined when it can): probed once, at collection. */
export function smallDiskRefusal(): string | undefined {
  let disk: SmallDisk | undefined
  try {
    disk = mountSmallDisk(64 * 1024)
    return undefined
  } catch (error) {
    return `cannot mount a tmpfs to fill (needs root): ${String((error as Error).message).split('\n')[0]}`
  } finally {
    disk?.dispose()
  }
}

/** Mounts a tmpfs of `bytes` on a fresh temp folder. Throws when mount is refused. */
export function mountSmallDisk(bytes: number): SmallDisk {
  const root = mkdtempSync(join(tmpdir(), 'sous-small-disk-'))
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${bytes},mode=0755`, 'tmpfs', root], { stdio: 'pipe' })
  } catch (error) {
    rmdirSync(root)
    throw error
  }
  const filler = join(root, 'filler')
  return {
    root,
    fill() {
      mkdirSync(root, { recursive: true })
      const descriptor = openSync(filler, 'a')
      const chunk = Buffer.alloc(4096, 0x2e)
      try {
        for (;;) writeSync(descriptor, chunk)
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error
      } finally {
        closeSync(descriptor)
      }
      // The last page may still have room for a few bytes: take them too.
      const tail = openSync(filler, 'a')
      try {
        for (;;) writeSync(tail, Buffer.from('.'))
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error
      } finally {
        closeSync(tail)
      }
      return filler
    },
    free() {
      rmSync(filler, { force: true })
    },
    dispose() {
      try {
        execFileSync('umount', [root], { stdio: 'pipe' })
      } finally {
        rmSync(root, { recursive: true, force: true })
      }
    },
  }
}

/**
 * A small disk of `bytes` mounted before each test of the file and unmounted after it (none where
 * `refusal` says mounting is refused: those tests skip). The returned disk is the current test's.
 */
export function smallDiskEach(bytes: number, refusal: string | undefined): Omit<SmallDisk, 'dispose'> {
  let current: SmallDisk | undefined
  beforeEach(() => {
    if (refusal === undefined) current = mountSmallDisk(bytes)
  })
  afterEach(() => {
    current?.dispose()
    current = undefined
  })
  const mounted = (): SmallDisk => {
    if (!current) throw new Error('no small disk is mounted: outside a test, or mounting was refused')
    return current
  }
  return {
    get root() {
      return mounted().root
    },
    fill: () => mounted().fill(),
    free: () => mounted().free(),
  }
}
