/** The cookie in which a browser session keeps the workspace its switcher chose (a workspace id). */
export const WORKSPACE_COOKIE = "weft-workspace";
