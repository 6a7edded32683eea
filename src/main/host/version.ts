import { version } from '../../../package.json'

/** The app's version, from package.json (inlined by the bundler). */
export const SOUS_VERSION: string = version
