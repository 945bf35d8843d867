// The progress bar `grpo-lab` draws on stderr while a run trains: only when stderr is a terminal
// (a pipe or a file gets nothing), redrawn in place at most every 100 ms.
import { estimateRemaining, formatSeconds } from '../../web/js/training/run-format.js';

const WIDTH = 28;

/** A bar for `total` updates; update(done) redraws it, finish() ends the line. */
export function progressBar(stream, total, label = '') {
  if (!stream?.isTTY) return { update() {}, finish() {} };
  const started = Date.now();
  let last = -Infinity;
  const draw = (done) => {
    const filled = Math.round((WIDTH * done) / total);
    const elapsed = Date.now() - started;
    const left = estimateRemaining(elapsed, done, total);
    const eta = left === null || done >= total ? '' : ` · ${formatSeconds(left)} left`;
    stream.write(`\r${label}[${'#'.repeat(filled)}${'.'.repeat(WIDTH - filled)}] ${done}/${total} updates · ${formatSeconds(elapsed)}${eta}\x1b[K`);
  };
  return {
    update(done) {
      const now = Date.now();
      if (now - last < 100 && done < total) return;
      last = now;
      draw(done);
    },
    finish(done = total) {
      draw(done);
      stream.write('\n');
    },
  };
}
