import type { AppCommand, View } from './shell'

/** What running a view's command does; the shell supplies both. */
export interface ViewActions {
  openDialog(id: string): void
  focus(selector: string): void
  /** Makes a sidebar view visible (its section unfolded) before it gets the focus. */
  reveal?(id: string): void
}

/**
 * One palette command per view that can be named: every dialog, and every sidebar view while a
 * project is open (overlays show themselves). This is what keeps "every view opens from the
 * command palette" true by construction: registering a view registers its command. Pure.
 */
export function viewCommands(views: readonly View[], hasProject: boolean, actions: ViewActions): AppCommand[] {
  const commands: AppCommand[] = []
  for (const view of views) {
    if (view.placement === 'overlay' || (view.placement === 'sidebar' && !hasProject)) continue
    const { title, keys, focus } = view.command ?? {}
    const command: AppCommand =
      view.placement === 'dialog'
        ? { id: `view.${view.id}`, title: title ?? `Open ${view.title}`, run: () => actions.openDialog(view.id) }
        : {
            id: `view.${view.id}`,
            title: title ?? `Show ${view.title}`,
            run: () => {
              actions.reveal?.(view.id)
              actions.focus(focus ?? `[aria-label="${view.title}"] :is(a[href], button, input, select, textarea, [tabindex="0"])`)
            },
          }
    if (keys) Object.assign(command, { shortcut: keys.label, binding: keys.binding })
    commands.push(command)
  }
  return commands
}
