import { GitignoreMatcher } from '../base/gitignore'
import type { FeedPolicy } from './change-feed'
import type { GitStore } from './git-store'
import { statMark } from './quick-fs'

/**
 * What a watcher may leave unwatched in a git repository, and what outside the tree makes it
 * doubt: git itself names the wholly ignored folders (once for the whole tree when a watcher
 * starts, then for each folder that appears), judged against the private index (a folder holding
 * a file the snapshots track is watched, ignored or not); nested repositories are boundaries;
 * the stat data of git's rule files ({@link GitStore.ruleFiles}) is compared at every snapshot.
 */
export function gitPolicy(git: GitStore, indexFile: string): FeedPolicy {
  let whole = new Set<string>()
  let rules = ''
  const fingerprint = async () => git.ruleFiles().map((path) => `${path}=${statMark(path)}`).join('\n')
  return {
    root: git.root,
    nested: 'boundary',
    async prepare() {
      ;[whole, rules] = await Promise.all([git.ignoredFolders(indexFile), fingerprint()])
    },
    async unwatched(folders, initial) {
      if (initial) return new Set(folders.filter((folder) => whole.has(folder)))
      return git.ignoredFolders(indexFile, folders)
    },
    async rulesChanged() {
      return (await fingerprint()) === rules ? undefined : "git's ignore rules or configuration changed"
    },
  }
}

/** The content store's: the shared `.gitignore` matcher decides (as the store's walk does), read afresh for each watcher. */
export function contentPolicy(root: string): FeedPolicy {
  let matcher = new GitignoreMatcher(root)
  return {
    root,
    nested: 'enter',
    async prepare() {
      matcher = new GitignoreMatcher(root)
    },
    async unwatched(folders) {
      const ignored = await Promise.all(folders.map((folder) => matcher.ignores(folder, true)))
      return new Set(folders.filter((_, index) => ignored[index]))
    },
  }
}
