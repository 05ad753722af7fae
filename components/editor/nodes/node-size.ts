/** Width of every canvas node (flow px): the opening view and auto-layout count on it. */
export const NODE_WIDTH = 224;

/**
 * The smallest text a canvas node draws (px at zoom 1: badges, facts, outcome labels). The opening
 * view never draws a small graph below the zoom at which it is 12 px on screen (fit-view.ts).
 */
export const NODE_MIN_FONT_PX = 12;
