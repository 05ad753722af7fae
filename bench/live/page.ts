/**
 * The browser side of B2: `window.watch(arm, base, runIds)` opens one EventSource per run (or polls
 * every second), and records for each event the delay from the writer's stamp (`t`, epoch ms, same
 * host clock) to onmessage and to the next animation frame, plus every (run, seq) received so lost
 * and duplicated events can be counted. Inline so the harness needs no bundler.
 */
export const PAGE_HTML = `<!doctype html><html><body><div id="out">0</div><script>
const now = () => performance.timeOrigin + performance.now();
window.samples = []; window.seen = [];
window.watch = (arm, base, runIds) => {
  const on = (runId, payload) => {
    const got = now();
    const seq = payload.seq, t = payload.t;
    window.seen.push(runId + ':' + seq);
    requestAnimationFrame(() => {
      document.getElementById('out').textContent = String(seq);
      window.samples.push({ arm, runId, seq, msg: got - t, paint: now() - t });
    });
  };
  for (const runId of runIds) {
    if (arm === 'poll') {
      let after = 0;
      const tick = async () => {
        const events = await (await fetch(base + '/poll/' + runId + '?after=' + after)).json();
        for (const e of events) { after = e.seq; on(runId, { seq: e.seq, t: e.event.detail.t }); }
      };
      window['poll_' + runId] = setInterval(tick, 1000);
      continue;
    }
    const es = new EventSource(base + '/' + arm + '/' + runId);
    es.onmessage = (m) => {
      const d = JSON.parse(m.data);
      if (arm === 'product') on(runId, { seq: d.seq, t: d.event.detail.t });
      else on(runId, d);
    };
    es.addEventListener('end', () => es.close());
    (window.sources = window.sources || []).push(es);
  }
};
window.stop = () => { for (const es of window.sources || []) es.close(); for (const k of Object.keys(window)) if (k.startsWith('poll_')) clearInterval(window[k]); };
</script></body></html>`;
