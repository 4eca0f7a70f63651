/** What a viewer site is (pure types): something that answers a path with a body, or null for "not found". */

/** A response body and its type, or null for "not found". */
export type Served = { type: string; body: string } | null;

/** A set of pages: answers a path. */
export interface Site {
  serve(pathname: string): Promise<Served>;
}
