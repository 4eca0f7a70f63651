/** The "more columns →" cue of wide tables: shown while columns are hidden to the right. */

/** Sets the cue of one table wrapper from its scroller's position. */
export function updateScrollCue(wrap: HTMLElement): void {
  const box = wrap.querySelector('.scroll');
  if (!box) return;
  const overflowing = box.scrollWidth > box.clientWidth + 1;
  wrap.classList.toggle('overflowing', overflowing);
  wrap.classList.toggle(
    'at-end',
    !overflowing || box.scrollLeft + box.clientWidth >= box.scrollWidth - 1,
  );
}

/** Keeps every table's cue current on scroll and resize. */
export function setupScrollCues(): void {
  const wraps = Array.from(document.querySelectorAll<HTMLElement>('.table-wrap'));
  const updateAll = () => wraps.forEach(updateScrollCue);
  for (const wrap of wraps) {
    const box = wrap.querySelector('.scroll');
    if (box) box.addEventListener('scroll', () => updateScrollCue(wrap), { passive: true });
    updateScrollCue(wrap);
  }
  window.addEventListener('resize', updateAll);
  if (typeof ResizeObserver !== 'undefined') {
    const observer = new ResizeObserver(updateAll);
    for (const wrap of wraps) observer.observe(wrap);
  }
}
