// For tests of `grpo-lab serve`: the URL the server prints once it listens.

/** Resolves to the URL `child` (a spawned `grpo-lab serve`) prints on stdout; rejects if it exits first, with what it printed. */
export function servedUrl(child) {
  return new Promise((resolve, reject) => {
    let text = '';
    child.stdout.on('data', (chunk) => {
      text += chunk;
      const match = /at (http:\/\/\S+\/)/.exec(text);
      if (match) resolve(match[1]);
    });
    child.on('close', (code) => reject(new Error(`serve exited with ${code}: ${text}`)));
  });
}
