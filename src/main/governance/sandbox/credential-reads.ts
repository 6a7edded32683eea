import { join } from 'node:path'

/**
 * Files and folders a sandboxed command may not read by default: credentials (keys, tokens, the
 * package managers' and git's stored passwords, Claude Code's and Sous's own), and, under the Sous
 * home, every project's transcripts and data. `sandbox.filesystem.allowRead` re-opens any of them.
 */
export function defaultDenyRead(home: string, sousHome?: string): string[] {
  const inHome = [
    '.ssh', '.aws', '.gnupg', '.config/gcloud', '.kube', '.docker', '.netrc', '.azure', '.config/gh', '.password-store',
    '.claude.json', '.claude/.credentials.json', '.git-credentials', '.config/git/credentials', '.npmrc', '.yarnrc.yml', '.pypirc',
    '.cargo/credentials', '.cargo/credentials.toml', '.gem/credentials', '.config/hub', '.terraform.d/credentials.tfrc.json',
  ].map((p) => join(home, p))
  return sousHome ? [...inHome, join(sousHome, 'credentials'), join(sousHome, 'projects')] : inHome
}
