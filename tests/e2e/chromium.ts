import { chromium, type Browser } from 'playwright-core'

/** Debian's Chromium, started as the machine's notes say (no background networking: the network is closed). */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
]

/** One headless Chromium for a test group; `extra` adds switches (a fake camera, for instance). */
export function launchChromium(extra: string[] = []): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: [...ARGS, ...extra] })
}
