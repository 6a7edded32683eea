import type { Preferences } from '../../../../shared/ipc/contract'
import type { KeyStatus } from './store'

/** Whether the app should be dark, from the preference and the system's scheme. Pure. */
export function isDark(theme: Preferences['theme'], systemDark: boolean): boolean {
  return theme === 'dark' || (theme === 'system' && systemDark)
}

/** How the key's status reads in the dialog. Pure. */
export function describeKey(status: KeyStatus | null): string {
  if (!status || !status.present) return 'No API key set.'
  switch (status.source) {
    case 'keychain':
      return 'A key is stored in the system keychain.'
    case 'environment':
      return 'A key comes from ANTHROPIC_API_KEY.'
    case 'memory':
      return 'A key is set for this run only (not saved to disk).'
    default:
      return 'A key is set.'
  }
}
