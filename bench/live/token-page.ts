/**
 * The browser side of B2b: `window.watchText(arm, bases, runIds, width, length)` opens one EventSource per
 * run and keeps each run's text as the viewer sees it; it draws it as the step inspector does
 * (components/runs/step-inspector.tsx: the text's tail in a wrapped, bounded scrolling box), from `event: live` frames (product arm:
 * `text.slice(0, at) + frame.text`, as lib/events/live-frame.ts applyLiveFrame does) or from the
 * `step_progress` events that carry one token each (naive arm). Every token is `width` characters,
 * so a text of length L holds tokens 0…⌊L/width⌋−1; each token is stamped once, when it first
 * appears (`got`) and at the animation frame that paints it (`painted`). `overlap` counts
 * characters a non-reset frame sent again, `gaps` frames that would have left a hole (both must
 * stay 0). A run is `done` once its text reached `length` characters, or (product) its stream ended:
the naive arm's viewer does not stop at the run's end, since token events may still be committed
after it; EventSource reconnects and resumes after its last id. Inline so the harness needs no
bundler.
 */
export const TOKEN_PAGE_HTML = `<!doctype html><html><body><script>
const now = () => performance.timeOrigin + performance.now();
window.samples = []; window.texts = {}; window.opens = {}; window.done = {}; window.overlap = 0; window.gaps = 0; window.sources = [];
// the step inspector draws the last LIVE_TAIL_CHARS (4,000) characters from a whole word (components/runs/live-tail.ts)
const tailOf = (t) => {
  if (t.length <= 4000) return t;
  let s = t.length - 4000;
  const n = t.slice(s, s + 80).search(/\s/);
  return t.slice(n >= 0 ? s + n + 1 : s);
};
window.watchText = (arm, bases, runIds, width, length) => {
  runIds.forEach((runId, i) => {
    const pre = document.createElement('pre');
    pre.style.cssText = 'white-space: pre-wrap; overflow-wrap: break-word; max-height: 16rem; overflow: auto; width: 36rem';
    document.body.appendChild(pre);
    let text = '', stamped = 0, queued = [], painting = false;
    const changed = () => {
      window.texts[runId] = text;
      if (text.length >= length) window.done[runId] = true;
      const whole = Math.floor(text.length / width), got = now();
      for (; stamped < whole; stamped++) queued.push([i, stamped, got]);
      if (painting || !queued.length) return;
      painting = true;
      requestAnimationFrame(() => {
        pre.textContent = tailOf(text);
        const t = now();
        for (const q of queued) window.samples.push([q[0], q[1], q[2], t]);
        queued = [];
        painting = false;
      });
    };
    const es = new EventSource(bases[i % bases.length] + '/product/' + runId + (arm === 'product' ? '?live' : ''));
    es.onopen = () => (window.opens[runId] = window.opens[runId] || []).push(now());
    if (arm === 'product') {
      es.addEventListener('live', (m) => {
        const f = JSON.parse(m.data);
        if (f.nodeId !== 'write') return;
        if (!f.reset && f.at > text.length) { window.gaps++; return; }
        if (!f.reset && f.at < text.length) window.overlap += text.length - f.at;
        text = text.slice(0, f.at) + f.text;
        changed();
      });
    } else {
      es.onmessage = (m) => {
        const e = JSON.parse(m.data).event;
        if (e && e.type === 'step_progress' && e.message === 'token') { text += e.detail.text; changed(); }
      };
    }
    if (arm === 'product') es.addEventListener('end', () => { window.done[runId] = true; es.close(); });
    window.sources.push(es);
  });
};
window.stop = () => { for (const es of window.sources) es.close(); };
</script></body></html>`;
