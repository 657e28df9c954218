// Headless Chromium for tests and the screenshot script: Debian's /usr/bin/chromium driven
// by playwright-core, which never downloads a browser of its own. The flags keep it from
// reaching out to the network (background updates, sync, QUIC), which a test machine has not.
import { existsSync } from "node:fs";
import { chromium, type Browser } from "playwright-core";

export const CHROMIUM = process.env.PALISADE_CHROMIUM ?? "/usr/bin/chromium";

export function haveChromium(): boolean {
  return existsSync(CHROMIUM);
}

/** Chromium with the flags above; a missing browser is an error that says how to install it. */
export function launchChromium(): Promise<Browser> {
  if (!haveChromium()) {
    return Promise.reject(
      new Error(
        `no Chromium at ${CHROMIUM}: run scripts/install-test-deps.sh (Debian package chromium), or set PALISADE_CHROMIUM`,
      ),
    );
  }
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--disable-dev-shm-usage",
    ],
  });
}
