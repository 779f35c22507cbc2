/**
 * What the API and the web app's server renderer (web/src/server/render.tsx, built into web/dist-server/) agree on:
 * how the renderer asks for data, what it answers, and the names the rendered page shares with the browser's app.
 */

/** Runs a GraphQL operation as an anonymous visitor; its `data`, or null when it answered errors. */
export type ExecuteQuery = (query: string, variables: Record<string, unknown>) => Promise<Record<string, unknown> | null>;

/** A page the renderer rendered: markup for #root and the Apollo cache it was rendered from (JSON-serialisable). */
export interface RenderedPage {
  html: string;
  state: unknown;
}

/** The renderer's entry: the page at a path with its data, or null for pages it leaves to the browser. */
export type RenderPage = (path: string, execute: ExecuteQuery) => Promise<RenderedPage | null>;

/** The id of the `<script type="application/json">` that carries a rendered page's state. */
export const SERVER_STATE_ID = 'mixcrate-state';

/** The global function through which a rendered page hands the clicks it held before hydration to the app. */
export const HELD_CLICKS_GLOBAL = 'mixcrateHeldClicks';
