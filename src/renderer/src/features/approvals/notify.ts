/**
 * An OS notification when Sous needs the user and the window is not in front. Uses the web
 * Notification API (Electron maps it to native notifications). Permission is asked once, the first
 * time it would be needed; a refusal is respected silently.
 */
export function notifyIfAway(title: string, body: string, tag: string): void {
  if (typeof Notification === 'undefined' || document.hasFocus()) return
  const show = (): void => {
    const note = new Notification(title, { body, tag })
    note.onclick = () => {
      window.focus()
      note.close()
    }
  }
  if (Notification.permission === 'granted') show()
  else if (Notification.permission === 'default') {
    void Notification.requestPermission().then((permission) => {
      if (permission === 'granted') show()
    })
  }
}
