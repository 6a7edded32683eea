import { useEffect } from 'react'
import { isDark } from '../features/settings/describe'
import { useSettings } from '../features/settings/store'
import { useSystemDark } from './useSystemDark'

/**
 * The look the preferences ask for (loaded once at start-up), applied to the document: light or
 * dark (the system's choice for "system"), and the interface font size.
 */
export function useTheme(): { dark: boolean; fontSize: number } {
  const preferences = useSettings((state) => state.preferences)
  const dark = isDark(preferences.theme, useSystemDark())
  useEffect(() => {
    void useSettings.getState().load()
  }, [])
  useEffect(() => {
    document.documentElement.dataset.theme = dark ? 'dark' : 'light'
    document.documentElement.style.setProperty('--ui-font-size', `${preferences.fontSize + 1}px`)
  }, [dark, preferences.fontSize])
  return { dark, fontSize: preferences.fontSize }
}
