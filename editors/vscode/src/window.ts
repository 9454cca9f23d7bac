// The windowed preview's arithmetic: which part of a long page to ask the
// server for, when to ask again, which answers are stale, and one request
// per animation frame. Pure and self-contained: `windowing` is called by the
// unit tests in Node and its source is inlined into the webview's script
// (`(${windowing.toString()})()`), so it must not refer to anything outside
// its own body.

/** A rectangle in diagram coordinates (the SVG's own pixels). */
export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface Size {
  width: number;
  height: number;
}

/** Which answer a render message carries: the document version and the
 * number of the region request it answered. */
export interface Stamp {
  version: number;
  seq: number;
}

export interface Windowing {
  /** Pages up to this many viewports long (or wide) are drawn whole. */
  WHOLE_PAGE_SCREENS: number;
  /** Screens rendered beyond the visible part on every side. */
  MARGIN_SCREENS: number;
  isLarge(page: Size, viewport: Size, zoom: number): boolean;
  visibleRect(scrollLeft: number, scrollTop: number, viewport: Size, zoom: number): Rect;
  regionFor(visible: Rect, page: Size | null, margin: number): Rect;
  covers(outer: Rect, inner: Rect): boolean;
  needsRegion(asked: Rect | null, visible: Rect, page: Size, margin: number): boolean;
  isFullPage(region: Rect, page: Size): boolean;
  isStale(shown: Stamp | null, incoming: Stamp): boolean;
  coalescer(schedule: (run: () => void) => void, run: () => void): () => void;
}

export function windowing(): Windowing {
  const WHOLE_PAGE_SCREENS = 3;
  const MARGIN_SCREENS = 1;

  /** Whether the page (at `zoom`) is more than a few screens each way. */
  function isLarge(page: Size, viewport: Size, zoom: number): boolean {
    return (
      page.height * zoom > WHOLE_PAGE_SCREENS * viewport.height ||
      page.width * zoom > WHOLE_PAGE_SCREENS * viewport.width
    );
  }

  /** The part of the page in view: scroll offsets are CSS pixels from the
   * page's top-left corner (negative while the page starts below the top). */
  function visibleRect(scrollLeft: number, scrollTop: number, viewport: Size, zoom: number): Rect {
    const z = zoom > 0 && isFinite(zoom) ? zoom : 1;
    return { x: scrollLeft / z, y: scrollTop / z, width: viewport.width / z, height: viewport.height / z };
  }

  /** `visible` grown by `margin` screens on every side, kept on the page
   * (`page` null: not known yet, only the top-left edge applies). Whole
   * pixels, so the region's picture lines up with the full page's. */
  function regionFor(visible: Rect, page: Size | null, margin: number): Rect {
    let left = visible.x - margin * visible.width;
    let top = visible.y - margin * visible.height;
    let right = visible.x + visible.width * (1 + margin);
    let bottom = visible.y + visible.height * (1 + margin);
    left = Math.max(0, Math.floor(left));
    top = Math.max(0, Math.floor(top));
    right = Math.ceil(right);
    bottom = Math.ceil(bottom);
    if (page) {
      right = Math.min(right, Math.ceil(page.width));
      bottom = Math.min(bottom, Math.ceil(page.height));
      // Scrolled past the end (the page shrank): keep the last screens.
      if (right <= left) {
        left = Math.max(0, right - Math.ceil(visible.width * (1 + 2 * margin)));
      }
      if (bottom <= top) {
        top = Math.max(0, bottom - Math.ceil(visible.height * (1 + 2 * margin)));
      }
    }
    return { x: left, y: top, width: Math.max(1, right - left), height: Math.max(1, bottom - top) };
  }

  /** Whether `outer` contains `inner` (half a pixel of slack for rounding). */
  function covers(outer: Rect, inner: Rect): boolean {
    return (
      outer.x <= inner.x + 0.5 &&
      outer.y <= inner.y + 0.5 &&
      outer.x + outer.width >= inner.x + inner.width - 0.5 &&
      outer.y + outer.height >= inner.y + inner.height - 0.5
    );
  }

  /** Whether to ask for a new region: the one asked last does not reach
   * half the margin beyond what is visible (clipped to the page), so the
   * new picture arrives before blank space scrolls into view. */
  function needsRegion(asked: Rect | null, visible: Rect, page: Size, margin: number): boolean {
    if (!asked) {
      return true;
    }
    const half = margin / 2;
    const left = Math.max(0, visible.x - half * visible.width);
    const top = Math.max(0, visible.y - half * visible.height);
    const right = Math.min(page.width, visible.x + visible.width * (1 + half));
    const bottom = Math.min(page.height, visible.y + visible.height * (1 + half));
    if (right <= left || bottom <= top) {
      return false; // nothing of the page is in view
    }
    return !covers(asked, { x: left, y: top, width: right - left, height: bottom - top });
  }

  function isFullPage(region: Rect, page: Size): boolean {
    return covers(region, { x: 0, y: 0, width: page.width, height: page.height });
  }

  /** An answer older than the one shown: an earlier document version, or
   * the same version for an earlier region request. */
  function isStale(shown: Stamp | null, incoming: Stamp): boolean {
    if (!shown) {
      return false;
    }
    return incoming.version < shown.version || (incoming.version === shown.version && incoming.seq < shown.seq);
  }

  /** `run` at most once per `schedule` tick however often the result is
   * called in between (scroll events come many per frame). */
  function coalescer(schedule: (run: () => void) => void, run: () => void): () => void {
    let pending = false;
    return function request() {
      if (pending) {
        return;
      }
      pending = true;
      schedule(function () {
        pending = false;
        run();
      });
    };
  }

  return {
    WHOLE_PAGE_SCREENS,
    MARGIN_SCREENS,
    isLarge,
    visibleRect,
    regionFor,
    covers,
    needsRegion,
    isFullPage,
    isStale,
    coalescer,
  };
}
