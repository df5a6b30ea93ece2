// Polls the gateway's health for the deployment's version id; a different id
// than the one this page loaded with means a new version is out.
import { useEffect, useState } from 'react';
import { loadSdk } from '../lib/loadSdk.js';

const VERSION_POLL_MS = 60_000;
const FIRST_CHECK_DELAY_MS = 3_000;

export function useVersionCheck(intervalMs = VERSION_POLL_MS): { updateAvailable: boolean } {
  const [updateAvailable, setUpdateAvailable] = useState(false);
  useEffect(() => {
    let loadedVersion: string | null = null;
    let stopped = false;
    const check = async () => {
      try {
        const { gateway } = await loadSdk();
        const { versionId } = await gateway.health();
        if (stopped) return;
        if (loadedVersion === null) {
          loadedVersion = versionId;
          // Which deployment this page compares against, for support (and tests) to read.
          document.documentElement.dataset.deployedVersion = versionId;
        } else if (versionId !== loadedVersion) setUpdateAvailable(true);
      } catch {
        // Offline or a deploy under way: the next poll tries again.
      }
    };
    // The first read waits a little so it does not compete with the page's own first load.
    const first = setTimeout(check, FIRST_CHECK_DELAY_MS);
    const timer = setInterval(check, intervalMs);
    return () => {
      stopped = true;
      clearTimeout(first);
      clearInterval(timer);
    };
  }, [intervalMs]);
  return { updateAvailable };
}
