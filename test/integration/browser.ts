// Headless Chromium for tests and the screenshot script: Debian's /usr/bin/chromium driven
// by playwright-core, which never downloads a browser of its own. The flags keep it from
// reaching out to the network (background updates, sync, QUIC), which a test machine has not.
import { existsSync } from "node:fs";
import { chromium, type Browser } from "playwright-core";

export const CHROMIUM = process.env.PALISADE_CHROMIUM ?? "/usr/bin/chromium";

export function haveChromium(): boolean {
  return existsSync(CHROMIUM);
}

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
      "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage",
    ],
  });
}
