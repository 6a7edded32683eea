import type { MergedSettings } from '../governance/settings/types'
import type { PermissionMode } from '../governance/types'

/**
 * The mode a session starts in when `--permission-mode` did not name one: the settings'
 * `defaultMode` (the loader already left out what a file may not set: a repository's
 * `bypassPermissions` or `auto` ever, its loosening modes before trust), else the fallback (the
 * app's Settings choice, or manual). A mode the settings turn off (`disableBypassPermissionsMode`,
 * `disableAutoMode`) starts as manual.
 */
export function startingMode(settings: MergedSettings, fallback: PermissionMode): PermissionMode {
  const mode = settings.defaultMode ?? fallback
  if (mode === 'bypassPermissions' && settings.disableBypassPermissions) return 'default'
  if (mode === 'auto' && settings.disableAutoMode) return 'default'
  return mode
}
