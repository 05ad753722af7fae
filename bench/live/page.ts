/**
 * The browser side of B2: `window.watch(arm, bases, runIds)` opens one EventSource per run, run i on
 * origin bases[i % bases.length] (or polls every second) and records, for each event, its run and seq, the wall-clock time (epoch ms, same
 * host clock as the writer) at `EventSource.onmessage` and at the next animation frame. The harness
 * turns these into delays from the writer's stamps and counts lost and duplicated events. Inline so
 * the harness needs no bundler.
 */
export const PAGE_HTML = `<!doctype html><html><body><div id="out">0</div><script>
const now = () => performance.timeOrigin + performance.now();
window.samples = [];
window.watch = (arm, bases, runIds) => {
  const on = (runId, seq) => {
    const got = now();
    requestAnimationFrame(() => {
      document.getElementById('out').textContent = String(seq);
      window.samples.push([runId, seq, got, now()]);
    });
  };
  runIds.forEach((runId, i) => {
    const base = bases[i % bases.length];
    if (arm === 'poll') {
      let after = 0, busy = false;
      const tick = async () => {
        if (busy) return; // a slow answer must not overlap the next tick (same 'after': duplicates)
        busy = true;
        try {
          const events = await (await fetch(base + '/poll/' + runId + '?after=' + after)).json();
          for (const e of events) { after = e.seq; on(runId, e.seq); }
        } finally { busy = false; }
      };
      window['poll_' + runId] = setInterval(tick, 1000);
      return;
    }
    const es = new EventSource(base + '/' + arm + '/' + runId);
    es.onmessage = (m) => on(runId, JSON.parse(m.data).seq);
    es.addEventListener('end', () => es.close());
    (window.sources = window.sources || []).push(es);
  });
};
window.stop = () => { for (const es of window.sources || []) es.close(); for (const k of Object.keys(window)) if (k.startsWith('poll_')) clearInterval(window[k]); };
</script></body></html>`;
